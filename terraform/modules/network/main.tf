# Private network for the Dataflow workers: no public IPs (the scripts pass --usePublicIps=false),
# Google APIs reached through Private Google Access, anything else through Cloud NAT.

resource "google_compute_network" "this" {
  project                 = var.project_id
  name                    = "${var.name}-net"
  auto_create_subnetworks = false
  routing_mode            = "REGIONAL"
}

resource "google_compute_subnetwork" "workers" {
  project                  = var.project_id
  name                     = "${var.name}-workers"
  region                   = var.region
  network                  = google_compute_network.this.id
  ip_cidr_range            = var.subnet_cidr
  private_ip_google_access = true
}

resource "google_compute_router" "this" {
  project = var.project_id
  name    = "${var.name}-router"
  region  = var.region
  network = google_compute_network.this.id
}

resource "google_compute_router_nat" "this" {
  project                            = var.project_id
  name                               = "${var.name}-nat"
  region                             = var.region
  router                             = google_compute_router.this.name
  nat_ip_allocate_option             = "AUTO_ONLY"
  source_subnetwork_ip_ranges_to_nat = "LIST_OF_SUBNETWORKS"

  subnetwork {
    name                    = google_compute_subnetwork.workers.id
    source_ip_ranges_to_nat = ["ALL_IP_RANGES"]
  }

  log_config {
    enable = true
    filter = "ERRORS_ONLY"
  }
}

# Dataflow workers talk to each other on TCP 12345-12346 (shuffle and streaming data exchange).
# Dataflow tags its VMs "dataflow"; the rule admits only traffic between such VMs. There is no
# rule for SSH and none open to 0.0.0.0/0.
resource "google_compute_firewall" "dataflow_internal" {
  project     = var.project_id
  name        = "${var.name}-dataflow-internal"
  network     = google_compute_network.this.id
  direction   = "INGRESS"
  priority    = 1000
  source_tags = ["dataflow"]
  target_tags = ["dataflow"]

  allow {
    protocol = "tcp"
    ports    = ["12345-12346"]
  }

  log_config {
    metadata = "EXCLUDE_ALL_METADATA"
  }
}
