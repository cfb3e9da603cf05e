variable "project_id" {
  description = "Project of the bucket and repository."
  type        = string
}

variable "region" {
  description = "Region of the bucket and repository (same as the Dataflow workers)."
  type        = string
}

variable "bucket_name" {
  description = "Globally unique bucket name (lowercase letters, digits, hyphens; at most 63 characters)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$", var.bucket_name)) && !startswith(var.bucket_name, "goog")
    error_message = "bucket_name must be 3-63 lowercase letters, digits and hyphens, and must not start with goog."
  }
}

variable "artifact_repository_id" {
  description = "Id of the Docker repository for flex template images."
  type        = string
}

variable "object_age_days" {
  description = "Age in days after which objects are deleted."
  type        = number
}

variable "force_destroy" {
  description = "Allow destroying the bucket with its objects."
  type        = bool
}

variable "labels" {
  description = "Labels of the bucket and repository."
  type        = map(string)
}
