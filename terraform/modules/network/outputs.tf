output "network_self_link" {
  description = "Self link of the VPC network."
  value       = google_compute_network.this.self_link
}

output "subnetwork_self_link" {
  description = "Self link of the worker subnetwork, as Dataflow's --subnetwork accepts it."
  value       = google_compute_subnetwork.workers.self_link
}
