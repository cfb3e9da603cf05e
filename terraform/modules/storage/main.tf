# Staging bucket for Dataflow (staged jars, temp files, flex template specs) and the Docker
# repository of the flex template images.

resource "google_storage_bucket" "dataflow" {
  project                     = var.project_id
  name                        = var.bucket_name
  location                    = upper(var.region)
  storage_class               = "STANDARD"
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"
  force_destroy               = var.force_destroy
  labels                      = var.labels

  lifecycle_rule {
    condition {
      age = var.object_age_days
    }
    action {
      type = "Delete"
    }
  }

  # Interrupted uploads of large staged jars are cleaned up after a day.
  lifecycle_rule {
    condition {
      age = 1
    }
    action {
      type = "AbortIncompleteMultipartUpload"
    }
  }
}

resource "google_artifact_registry_repository" "templates" {
  project       = var.project_id
  location      = var.region
  repository_id = var.artifact_repository_id
  format        = "DOCKER"
  description   = "Flex template launcher images of the thrift-pubsub-bigquery pipelines."
  labels        = var.labels
}
