output "dataset_id" {
  description = "Dataset id."
  value       = google_bigquery_dataset.this.dataset_id
}

output "event_table_spec" {
  description = "Event table as PROJECT:DATASET.TABLE."
  value       = "${var.project_id}:${google_bigquery_dataset.this.dataset_id}.${google_bigquery_table.events.table_id}"
}

output "dead_letter_table_spec" {
  description = "Dead-letter table as PROJECT:DATASET.TABLE."
  value       = "${var.project_id}:${google_bigquery_dataset.this.dataset_id}.${google_bigquery_table.dead_letter.table_id}"
}

output "struct_table_specs" {
  description = "Event table of each struct (several event types) as PROJECT:DATASET.TABLE, keyed by the struct's table name."
  value       = { for key, t in google_bigquery_table.by_struct : key => "${var.project_id}:${t.dataset_id}.${t.table_id}" }
}
