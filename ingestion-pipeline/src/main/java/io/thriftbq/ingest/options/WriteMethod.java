package io.thriftbq.ingest.options;

import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;

/** The BigQuery write methods this template supports. */
public enum WriteMethod {
  STREAMING_INSERTS(BigQueryIO.Write.Method.STREAMING_INSERTS),
  STORAGE_WRITE_API(BigQueryIO.Write.Method.STORAGE_WRITE_API),
  STORAGE_API_AT_LEAST_ONCE(BigQueryIO.Write.Method.STORAGE_API_AT_LEAST_ONCE);

  private final BigQueryIO.Write.Method beamMethod;

  WriteMethod(BigQueryIO.Write.Method beamMethod) {
    this.beamMethod = beamMethod;
  }

  public BigQueryIO.Write.Method beamMethod() {
    return beamMethod;
  }

  public boolean isExactlyOnce() {
    return this == STORAGE_WRITE_API;
  }
}
