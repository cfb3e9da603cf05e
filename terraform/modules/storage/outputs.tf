output "bucket_name" {
  description = "Name of the staging bucket."
  value       = google_storage_bucket.dataflow.name
}

output "artifact_repository_id" {
  description = "Id of the Docker repository."
  value       = google_artifact_registry_repository.templates.repository_id
}

output "artifact_repository_url" {
  description = "Docker repository URL, REGION-docker.pkg.dev/PROJECT/REPO."
  value       = "${var.region}-docker.pkg.dev/${var.project_id}/${google_artifact_registry_repository.templates.repository_id}"
}
