output "network_self_link" {
  description = "Self link of the VPC network."
  value       = google_compute_network.this.self_link
}

output "subnetwork_id" {
  description = "Id of the worker subnetwork, projects/PROJECT/regions/REGION/subnetworks/NAME (where Managed Kafka publishes its cluster)."
  value       = google_compute_subnetwork.workers.id
}

output "subnetwork_self_link" {
  description = "Self link of the worker subnetwork, as Dataflow's --subnetwork accepts it."
  value       = google_compute_subnetwork.workers.self_link
}
