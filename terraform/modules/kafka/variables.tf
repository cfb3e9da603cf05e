variable "project_id" {
  description = "Project of the cluster."
  type        = string
}

variable "region" {
  description = "Region of the cluster: the workers' region (the subnetwork must be in it)."
  type        = string
}

variable "cluster_id" {
  description = "Id of the cluster (1-63 characters: lowercase letters, digits, hyphens)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$", var.cluster_id))
    error_message = "cluster_id must be 1-63 lowercase letters, digits and hyphens, starting with a letter."
  }
}

variable "topic_id" {
  description = "Name of the event topic."
  type        = string
}

variable "subnetwork_id" {
  description = "Subnetwork the cluster is published in, as projects/PROJECT/regions/REGION/subnetworks/NAME."
  type        = string
}

variable "vcpu_count" {
  description = "vCPUs of the cluster (at least 3)."
  type        = number
}

variable "memory_gib" {
  description = "Memory of the cluster in GiB (1 to 8 per vCPU)."
  type        = number
}

variable "partition_count" {
  description = "Partitions of the event topic."
  type        = number
}

variable "retention_ms" {
  description = "How long the topic keeps records, in milliseconds."
  type        = number
}

variable "max_message_bytes" {
  description = "Largest record batch the topic accepts, in bytes (the generator's max.request.size must fit)."
  type        = number
}

variable "labels" {
  description = "Labels of the cluster."
  type        = map(string)
}
