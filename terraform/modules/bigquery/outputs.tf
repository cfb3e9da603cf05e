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
