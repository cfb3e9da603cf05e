variable "project_id" {
  description = "Google Cloud project that hosts every resource of the template."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a Google Cloud project id: 6-30 characters, lowercase letters, digits and hyphens, starting with a letter."
  }
}

variable "region" {
  description = "Region of the Dataflow workers, the subnetwork, the Cloud NAT and the staging bucket. Keep it inside the BigQuery location (for the default US multi-region: a us-* region such as us-central1)."
  type        = string
  default     = "us-central1"

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]+$", var.region))
    error_message = "region must be a Compute Engine region such as us-central1 or europe-west4."
  }
}

variable "name_prefix" {
  description = "One prefix all names are derived from. Lowercase letters, digits and single hyphens; GCS, service-account, network and Dataflow job names use it as is, BigQuery ids use it with hyphens turned into underscores."
  type        = string
  default     = "thriftbq"

  validation {
    # 3-20 characters keeps the derived names inside every limit: the service account id
    # "<prefix>-df-worker" (6-30 characters) and the bucket "<project>-<prefix>-dataflow"
    # (at most 63 characters with a 30-character project id).
    condition     = can(regex("^[a-z]([a-z0-9]|-[a-z0-9]){2,19}$", var.name_prefix))
    error_message = "name_prefix must be 3-20 characters: lowercase letters, digits and single hyphens, starting with a letter and not ending with a hyphen."
  }
}

variable "event_source" {
  description = "Where the events travel from the generator to the ingestion pipeline: pubsub (a topic and a subscription) or kafka (a Managed Service for Apache Kafka cluster and topic, reached from the workers' subnetwork; the jobs run with --source kafka). The other's resources are not created; switching destroys them."
  type        = string
  default     = "pubsub"

  validation {
    condition     = contains(["pubsub", "kafka"], var.event_source)
    error_message = "event_source must be pubsub or kafka."
  }
}

variable "kafka_vcpu_count" {
  description = "vCPUs of the Managed Kafka cluster (event_source = kafka; at least 3). Size it from the publish and read rates: the default is a small cluster to try the route, far from the study's 1 GB/s."
  type        = number
  default     = 3

  validation {
    condition     = var.kafka_vcpu_count >= 3 && floor(var.kafka_vcpu_count) == var.kafka_vcpu_count
    error_message = "kafka_vcpu_count must be a whole number of at least 3."
  }
}

variable "kafka_memory_gib" {
  description = "Memory of the Managed Kafka cluster in GiB, 1 to 8 per vCPU (event_source = kafka)."
  type        = number
  default     = 12

  validation {
    condition     = var.kafka_memory_gib >= 3 && floor(var.kafka_memory_gib) == var.kafka_memory_gib
    error_message = "kafka_memory_gib must be a whole number of GiB, at least 3 (1 per vCPU of the smallest cluster)."
  }
}

variable "kafka_partition_count" {
  description = "Partitions of the Kafka event topic. They bound the read's parallelism (KafkaIO reads each partition in one split), so keep at least as many as the ingestion job's worker vCPUs at its largest."
  type        = number
  default     = 128

  validation {
    condition     = var.kafka_partition_count >= 1 && var.kafka_partition_count <= 10000 && floor(var.kafka_partition_count) == var.kafka_partition_count
    error_message = "kafka_partition_count must be a whole number between 1 and 10000."
  }
}

variable "kafka_retention_hours" {
  description = "How long the Kafka topic keeps records, in hours (1 to 168). One day by default, like the Pub/Sub subscription: at 1 GB/s a long backlog is costly."
  type        = number
  default     = 24

  validation {
    condition     = var.kafka_retention_hours >= 1 && var.kafka_retention_hours <= 168
    error_message = "kafka_retention_hours must be between 1 and 168."
  }
}

variable "kafka_max_message_bytes" {
  description = "Largest record batch the Kafka topic accepts, in bytes. The generator's records must fit (its producer's max.request.size is 1048576 by default); raise both together for larger envelopes."
  type        = number
  default     = 1048588

  validation {
    condition     = var.kafka_max_message_bytes >= 1024 && var.kafka_max_message_bytes <= 10485760
    error_message = "kafka_max_message_bytes must be between 1024 and 10485760."
  }
}

variable "bigquery_location" {
  description = "Location of the BigQuery dataset. Defaults to the US multi-region: the Storage Write API throughput quota is about 3 GB/s per project in the US and EU multi-regions but about 300 MB/s in a single region, and the workload is about 1 GB/s."
  type        = string
  default     = "US"

  validation {
    condition     = can(regex("^(US|EU|[a-z]+-[a-z]+[0-9]+)$", var.bigquery_location))
    error_message = "bigquery_location must be US, EU or a single region such as us-central1."
  }
}

variable "event_table_schema_file" {
  description = "Path of the BigQuery JSON schema of the event table, written by the project's SchemaExporter (scripts/export-schema.sh). Null uses terraform/schemas/event_table.json, the schema of the sample io.thriftbq.sample.Event."
  type        = string
  default     = null
}

variable "dead_letter_table_schema_file" {
  description = "Path of the BigQuery JSON schema of the dead-letter table. Null uses terraform/schemas/dead_letter_table.json."
  type        = string
  default     = null
}

variable "event_tables" {
  description = "One event table per Thrift struct, for a job with several event types (--thriftStructs or --thriftUnion). Key: the struct's table name in snake_case, what {struct} in --outputTable becomes (Order -> order); scripts/export-schema.sh --structs writes the schema files and this map. Value: schema_file (relative to terraform/ or absolute), and optionally table_id (default events_<key>, which is what the scripts' default --outputTable=...events_{struct} writes to; another id needs --tableForStruct at launch), partition_type, partition_field and clustering_fields (default: the event_table_* settings), and for change mode (--primaryKey) primary_key and max_staleness (default: event_table_primary_key and event_table_max_staleness; [] for no key), which scripts/export-schema.sh writes from the job's --primaryKey and --maxStaleness. Empty (the default): only the single table events."
  type = map(object({
    schema_file       = string
    table_id          = optional(string)
    partition_type    = optional(string)
    partition_field   = optional(string)
    clustering_fields = optional(list(string))
    primary_key       = optional(list(string))
    max_staleness     = optional(string)
  }))
  default = {}

  validation {
    condition     = alltrue([for k, t in var.event_tables : can(regex("^[a-z0-9_]+$", k)) && k != "dead_letter"])
    error_message = "event_tables keys are struct table names in snake_case (lowercase letters, digits, underscores), as SchemaExporter writes them; dead_letter would collide with the dead-letter table events_dead_letter."
  }

  validation {
    condition     = alltrue([for k, t in var.event_tables : t.table_id == null || (can(regex("^[A-Za-z0-9_]+$", coalesce(t.table_id, "x"))) && length(coalesce(t.table_id, "x")) <= 1024 && !contains(["events", "events_dead_letter"], coalesce(t.table_id, "x")))])
    error_message = "event_tables table_id may contain only letters, digits and underscores, and must not be events or events_dead_letter (the single-type and dead-letter tables)."
  }

  validation {
    condition     = alltrue([for k, t in var.event_tables : t.partition_type == null || contains(["DAY", "HOUR", "MONTH", "YEAR"], coalesce(t.partition_type, "DAY"))])
    error_message = "event_tables partition_type must be DAY, HOUR, MONTH, YEAR or null."
  }

  validation {
    condition     = alltrue([for k, t in var.event_tables : t.clustering_fields == null ? true : length(t.clustering_fields) <= 4])
    error_message = "BigQuery clusters by at most four columns (event_tables clustering_fields)."
  }

  validation {
    condition     = alltrue([for k, t in var.event_tables : t.primary_key == null ? true : length(t.primary_key) <= 16 && length(distinct(t.primary_key)) == length(t.primary_key) && alltrue([for c in t.primary_key : can(regex("^[A-Za-z_][A-Za-z0-9_]{0,299}$", c))])])
    error_message = "event_tables primary_key: at most 16 distinct top-level column names (letters, digits, underscores, not starting with a digit), as --primaryKey gives them."
  }

  validation {
    condition     = alltrue([for k, t in var.event_tables : t.max_staleness == null || can(regex("^[0-9]+-[0-9]+ [0-9]+ [0-9]+:[0-9]+:[0-9]+$", coalesce(t.max_staleness, "x")))])
    error_message = "event_tables max_staleness must be BigQuery's INTERVAL literal Y-M D H:M:S, for example \"0-0 0 0:15:0\" (what SchemaExporter writes for --maxStaleness=PT15M)."
  }

  validation {
    condition     = length(distinct([for k, t in var.event_tables : coalesce(t.table_id, "events_${k}")])) == length(var.event_tables)
    error_message = "Two event_tables entries name the same table: give each struct its own table_id."
  }
}

variable "event_table_primary_key" {
  description = "Change mode (the job's --primaryKey): the event table's primary key columns, declared PRIMARY KEY NOT ENFORCED, so that BigQuery applies the job's upserts and deletes by them. The launch refuses an existing table whose key differs from --primaryKey. scripts/export-schema.sh -- --primaryKey=COLS writes it (event_table.tfvars.json). Empty (the default): an append-only table. Also the default of every event_tables entry."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.event_table_primary_key) <= 16 && length(distinct(var.event_table_primary_key)) == length(var.event_table_primary_key)
    error_message = "event_table_primary_key: BigQuery keys have at most 16 columns, each named once."
  }

  validation {
    condition     = alltrue([for c in var.event_table_primary_key : can(regex("^[A-Za-z_][A-Za-z0-9_]{0,299}$", c))])
    error_message = "event_table_primary_key entries must be top-level column names: letters, digits and underscores, not starting with a digit."
  }
}

variable "event_table_max_staleness" {
  description = "Change mode (the job's --maxStaleness): the event table's max_staleness, as BigQuery's INTERVAL literal Y-M D H:M:S (\"0-0 0 0:15:0\" for --maxStaleness=PT15M; scripts/export-schema.sh writes it). BigQuery applies queued changes in the background at most this often; null (the default): changes are merged at query time. Also the default of every event_tables entry."
  type        = string
  default     = null

  validation {
    condition     = var.event_table_max_staleness == null || can(regex("^[0-9]+-[0-9]+ [0-9]+ [0-9]+:[0-9]+:[0-9]+$", coalesce(var.event_table_max_staleness, "x")))
    error_message = "event_table_max_staleness must be BigQuery's INTERVAL literal Y-M D H:M:S, for example \"0-0 0 0:15:0\" (15 minutes) or \"0-0 1 0:0:0\" (one day)."
  }
}

variable "event_table_partition_type" {
  description = "Time partitioning of the event table: DAY, HOUR, MONTH or YEAR; null for an unpartitioned table."
  type        = string
  default     = null

  validation {
    condition     = var.event_table_partition_type == null || contains(["DAY", "HOUR", "MONTH", "YEAR"], coalesce(var.event_table_partition_type, "DAY"))
    error_message = "event_table_partition_type must be DAY, HOUR, MONTH, YEAR or null."
  }
}

variable "event_table_partition_field" {
  description = "Top-level TIMESTAMP or DATE column to partition the event table by (for example _publish_time); null partitions by ingestion time when event_table_partition_type is set."
  type        = string
  default     = null
}

variable "event_table_clustering_fields" {
  description = "Up to four top-level columns to cluster the event table by; empty for no clustering."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.event_table_clustering_fields) <= 4
    error_message = "BigQuery clusters by at most four columns."
  }
}

variable "table_deletion_protection" {
  description = "Protect the BigQuery tables from terraform destroy. False by default because the template is a benchmark whose clean-up is terraform destroy; set true for data you keep."
  type        = bool
  default     = false
}

variable "ack_deadline_seconds" {
  description = "Ack deadline of the ingestion subscription. Dataflow extends deadlines itself; this is the initial value."
  type        = number
  default     = 60

  validation {
    condition     = var.ack_deadline_seconds >= 10 && var.ack_deadline_seconds <= 600
    error_message = "ack_deadline_seconds must be between 10 and 600."
  }
}

variable "message_retention_duration" {
  description = "How long the subscription keeps unacknowledged messages, in seconds with an s suffix (600s to 604800s). One day by default: at 1 GB/s a long backlog is costly."
  type        = string
  default     = "86400s"

  validation {
    condition     = can(regex("^[0-9]+s$", var.message_retention_duration)) && try(tonumber(trimsuffix(var.message_retention_duration, "s")) >= 600 && tonumber(trimsuffix(var.message_retention_duration, "s")) <= 604800, false)
    error_message = "message_retention_duration must be between 600s and 604800s."
  }
}

variable "max_delivery_attempts" {
  description = "Deliveries of a message before Pub/Sub moves it to the dead-letter topic (5 to 100)."
  type        = number
  default     = 10

  validation {
    condition     = var.max_delivery_attempts >= 5 && var.max_delivery_attempts <= 100
    error_message = "max_delivery_attempts must be between 5 and 100."
  }
}

variable "staging_object_age_days" {
  description = "Days after which the lifecycle rule deletes objects in the staging bucket (staged jars, temp files)."
  type        = number
  default     = 14

  validation {
    condition     = var.staging_object_age_days >= 1
    error_message = "staging_object_age_days must be at least 1."
  }
}

variable "bucket_force_destroy" {
  description = "Let terraform destroy delete the staging bucket with its objects. True by default so that clean-up is one command."
  type        = bool
  default     = true
}

variable "subnet_cidr" {
  description = "Primary IPv4 range of the worker subnetwork. A /20 leaves room for about 4,000 workers."
  type        = string
  default     = "10.128.0.0/20"

  validation {
    condition     = can(cidrhost(var.subnet_cidr, 0))
    error_message = "subnet_cidr must be an IPv4 CIDR block such as 10.128.0.0/20."
  }
}

variable "launcher_members" {
  description = "IAM members (user:..., group:..., serviceAccount:...) who launch the jobs: they get roles/iam.serviceAccountUser on the worker service account only."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for m in var.launcher_members : can(regex("^(user|group|serviceAccount|domain):.+$", m))])
    error_message = "launcher_members entries must look like user:alice@example.com, group:..., serviceAccount:... or domain:...."
  }
}

variable "enable_apis" {
  description = "Enable the APIs the template uses (Dataflow, Pub/Sub, BigQuery, BigQuery Storage, Compute, Storage, Artifact Registry, Cloud Build). Disabling them on destroy is never done."
  type        = bool
  default     = true
}

variable "labels" {
  description = "Labels added to every resource that takes labels."
  type        = map(string)
  default     = {}
}
