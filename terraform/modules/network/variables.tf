variable "project_id" {
  description = "Project of the network."
  type        = string
}

variable "region" {
  description = "Region of the subnetwork, router and NAT."
  type        = string
}

variable "name" {
  description = "Hyphenated name prefix of the network resources."
  type        = string
}

variable "subnet_cidr" {
  description = "Primary IPv4 range of the worker subnetwork."
  type        = string
}
