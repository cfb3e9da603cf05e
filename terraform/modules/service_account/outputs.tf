output "email" {
  description = "Email of the worker service account."
  value       = google_service_account.worker.email
}
