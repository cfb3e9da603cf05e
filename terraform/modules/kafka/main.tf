# Managed Service for Apache Kafka: one cluster reachable from the workers' subnetwork, and the
# event topic. The service publishes the cluster in the subnetwork through Private Service Connect
# (an address per broker and one for the bootstrap server, with DNS names under
# managedkafka.PROJECT.cloud.goog resolved in the VPC), so the workers reach it on their private
# IPs: no public endpoint, no peering. Clients authenticate with SASL/OAUTHBEARER tokens of their
# service account (roles/managedkafka.client, granted by the service_account module).

resource "google_managed_kafka_cluster" "this" {
  project    = var.project_id
  cluster_id = var.cluster_id
  location   = var.region

  capacity_config {
    vcpu_count   = var.vcpu_count
    memory_bytes = var.memory_gib * 1024 * 1024 * 1024
  }

  gcp_config {
    access_config {
      network_configs {
        subnet = var.subnetwork_id
      }
    }
  }

  # New brokers take a share of the partitions when the cluster is scaled up.
  rebalance_config {
    mode = "AUTO_REBALANCE_ON_SCALE_UP"
  }

  labels = var.labels

  lifecycle {
    precondition {
      condition     = var.memory_gib >= var.vcpu_count && var.memory_gib <= 8 * var.vcpu_count
      error_message = "kafka_memory_gib must be between 1 and 8 GiB per vCPU of kafka_vcpu_count."
    }
  }
}

resource "google_managed_kafka_topic" "events" {
  project            = var.project_id
  cluster            = google_managed_kafka_cluster.this.cluster_id
  location           = var.region
  topic_id           = var.topic_id
  partition_count    = var.partition_count
  replication_factor = 3

  configs = {
    "retention.ms"      = tostring(var.retention_ms)
    "max.message.bytes" = tostring(var.max_message_bytes)
  }
}
