# Dataset with the event table and the dead-letter table. The location defaults to the US
# multi-region (see the root variable bigquery_location): the Storage Write API throughput quota
# is about 3 GB/s per project in the US and EU multi-regions but only about 300 MB/s in a single
# region, and the workload of the tuning study is about 1 GB/s.

resource "google_bigquery_dataset" "this" {
  project     = var.project_id
  dataset_id  = var.dataset_id
  location    = var.location
  description = "Thrift events ingested from Pub/Sub by the thrift-pubsub-bigquery template."
  labels      = var.labels

  delete_contents_on_destroy = !var.deletion_protection
}

resource "google_bigquery_table" "events" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.this.dataset_id
  table_id            = var.event_table_id
  description         = "Events, one row per Thrift struct, schema derived from the IDL by SchemaExporter."
  schema              = var.event_table_schema
  clustering          = length(var.clustering_fields) > 0 ? var.clustering_fields : null
  deletion_protection = var.deletion_protection
  labels              = var.labels

  dynamic "time_partitioning" {
    for_each = var.partition_type == null ? [] : [var.partition_type]
    content {
      type  = time_partitioning.value
      field = var.partition_field
    }
  }
  # Change mode (the job's --primaryKey, --maxStaleness): the key BigQuery applies upserts and
  # deletes by, and how stale a query may read the table. The launch refuses a table whose key
  # differs from --primaryKey.
  max_staleness = var.max_staleness

  dynamic "table_constraints" {
    for_each = length(var.primary_key) > 0 ? [var.primary_key] : []
    content {
      primary_key {
        columns = table_constraints.value
      }
    }
  }
}

# A job with several event types writes each struct to its own table (--outputTable with
# {struct}); the single events table above stays, so switching a prefix to many types destroys
# nothing.
resource "google_bigquery_table" "by_struct" {
  for_each = var.struct_tables

  project             = var.project_id
  dataset_id          = google_bigquery_dataset.this.dataset_id
  table_id            = each.value.table_id
  description         = "Events of the Thrift struct ${each.key}, one row per event, schema derived from the IDL by SchemaExporter."
  schema              = each.value.schema
  clustering          = length(each.value.clustering_fields) > 0 ? each.value.clustering_fields : null
  deletion_protection = var.deletion_protection
  labels              = var.labels

  dynamic "time_partitioning" {
    for_each = each.value.partition_type == null ? [] : [each.value.partition_type]
    content {
      type  = time_partitioning.value
      field = each.value.partition_field
    }
  }
  max_staleness = each.value.max_staleness

  dynamic "table_constraints" {
    for_each = length(each.value.primary_key) > 0 ? [each.value.primary_key] : []
    content {
      primary_key {
        columns = table_constraints.value
      }
    }
  }
}

# Append-only: never a primary key or max_staleness, whatever the event tables declare.
resource "google_bigquery_table" "dead_letter" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.this.dataset_id
  table_id            = var.dead_letter_table_id
  description         = "Messages that could not be decoded, transformed, converted or written, with the stage and the error."
  schema              = var.dead_letter_table_schema
  deletion_protection = var.deletion_protection
  labels              = var.labels

  time_partitioning {
    type  = "DAY"
    field = "failed_at"
  }
}
