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

variable "struct_tables" {
  description = "Event tables of a job with several event types, one per Thrift struct, keyed by the struct's table name: table id, JSON schema, partitioning (type or null, field or null) and clustering columns. Empty: none."
  type = map(object({
    table_id          = string
    schema            = string
    partition_type    = string
    partition_field   = string
    clustering_fields = list(string)
  }))
  default = {}
}

variable "deletion_protection" {
  description = "Protect the tables (and keep dataset contents) on destroy."
  type        = bool
}

variable "labels" {
  description = "Labels of the dataset and tables."
  type        = map(string)
}
