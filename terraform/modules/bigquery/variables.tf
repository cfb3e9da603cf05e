variable "project_id" {
  description = "Project of the dataset."
  type        = string
}

variable "location" {
  description = "Dataset location (multi-region US or EU, or a single region)."
  type        = string
}

variable "dataset_id" {
  description = "Dataset id (letters, digits and underscores)."
  type        = string

  validation {
    # RE2 (Terraform's regex) allows repeat counts up to 1000 only: the length is checked apart.
    condition     = can(regex("^[A-Za-z0-9_]+$", var.dataset_id)) && length(var.dataset_id) <= 1024
    error_message = "dataset_id may contain only letters, digits and underscores."
  }
}

variable "event_table_id" {
  description = "Id of the event table."
  type        = string
}

variable "dead_letter_table_id" {
  description = "Id of the dead-letter table."
  type        = string
}

variable "event_table_schema" {
  description = "BigQuery JSON schema of the event table (contents of the file SchemaExporter writes)."
  type        = string
}

variable "dead_letter_table_schema" {
  description = "BigQuery JSON schema of the dead-letter table."
  type        = string
}

variable "partition_type" {
  description = "Time partitioning type of the event table, or null."
  type        = string
}

variable "partition_field" {
  description = "Partitioning column of the event table, or null for ingestion time."
  type        = string
}

variable "clustering_fields" {
  description = "Clustering columns of the event table."
  type        = list(string)
}

variable "primary_key" {
  description = "Primary key columns of the event table (change mode: PRIMARY KEY NOT ENFORCED, the key BigQuery applies upserts and deletes by); empty for an append-only table. Never set on the dead-letter table."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.primary_key) <= 16 && alltrue([for c in var.primary_key : can(regex("^[A-Za-z_][A-Za-z0-9_]{0,299}$", c))])
    error_message = "primary_key: at most 16 top-level column names (letters, digits, underscores, not starting with a digit)."
  }
}

variable "max_staleness" {
  description = "max_staleness of the event table as BigQuery's INTERVAL literal Y-M D H:M:S (for example 0-0 0 0:15:0), or null. Never set on the dead-letter table."
  type        = string
  default     = null

  validation {
    condition     = var.max_staleness == null || can(regex("^[0-9]+-[0-9]+ [0-9]+ [0-9]+:[0-9]+:[0-9]+$", coalesce(var.max_staleness, "x")))
    error_message = "max_staleness must be BigQuery's INTERVAL literal Y-M D H:M:S, for example 0-0 0 0:15:0."
  }
}

variable "struct_tables" {
  description = "Event tables of a job with several event types, one per Thrift struct, keyed by the struct's table name: table id, JSON schema, partitioning (type or null, field or null), clustering columns, and change mode's primary key (empty: append-only) and max_staleness (INTERVAL literal or null). Empty: none."
  type = map(object({
    table_id          = string
    schema            = string
    partition_type    = string
    partition_field   = string
    clustering_fields = list(string)
    primary_key       = list(string)
    max_staleness     = string
  }))
  default = {}

  validation {
    condition     = alltrue([for k, t in var.struct_tables : length(t.primary_key) <= 16 && alltrue([for c in t.primary_key : can(regex("^[A-Za-z_][A-Za-z0-9_]{0,299}$", c))])])
    error_message = "struct_tables primary_key: at most 16 top-level column names (letters, digits, underscores, not starting with a digit)."
  }

  validation {
    condition     = alltrue([for k, t in var.struct_tables : t.max_staleness == null || can(regex("^[0-9]+-[0-9]+ [0-9]+ [0-9]+:[0-9]+:[0-9]+$", coalesce(t.max_staleness, "x")))])
    error_message = "struct_tables max_staleness must be BigQuery's INTERVAL literal Y-M D H:M:S, for example 0-0 0 0:15:0."
  }
}

variable "deletion_protection" {
  description = "Protect the tables (and keep dataset contents) on destroy."
  type        = bool
}

variable "labels" {
  description = "Labels of the dataset and tables."
  type        = map(string)
}
