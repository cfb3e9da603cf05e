package io.thriftbq.local.config;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.EventTypes;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The flags that describe a run's events (the struct or structs, how a message names its struct,
 * the protocol), given alike to the publisher and to the ingestion pipeline so that the pipeline
 * reads what is published. Local mode sets each of them itself, the defaults included, so an {@code
 * --ingest-arg} cannot give the pipeline another description than the events have (it is refused,
 * naming the option to use).
 *
 * @param idl the IDL file, or null for the sample event's generated class
 */
record EventFlags(
    @Nullable String idl,
    @Nullable String idlIncludePath,
    @Nullable String struct,
    @Nullable String structs,
    @Nullable String union,
    @Nullable String structAttribute,
    ThriftProtocol protocol) {

  /** For the ingestion pipeline (and the exporter): struct names only. */
  List<String> forIngestion() {
    return flags(false);
  }

  /** For the data generator: the structs with their weights. */
  List<String> forGenerator() {
    return flags(true);
  }

  private List<String> flags(boolean generator) {
    List<String> args = new ArrayList<>();
    if (idl == null) {
      args.add((generator ? "--className=" : "--thriftClassName=") + LocalRunConfig.EVENT_CLASS);
    } else {
      args.add("--thriftIdl=" + Paths.get(idl).toAbsolutePath());
      if (struct != null) {
        args.add("--thriftStruct=" + struct);
      }
      if (structs != null) {
        args.add("--thriftStructs=" + (generator ? structs : withoutWeights(structs)));
      }
      if (union != null) {
        args.add("--thriftUnion=" + union);
      }
      if (structs != null && union == null) {
        args.add(
            "--structAttribute="
                + (structAttribute != null
                    ? structAttribute
                    : EventTypes.DEFAULT_STRUCT_ATTRIBUTE));
      }
      if (idlIncludePath != null) {
        args.add("--thriftIdlIncludePath=" + idlIncludePath);
      }
    }
    args.add("--thriftProtocol=" + protocol.name());
    return args;
  }

  private static String withoutWeights(String list) {
    List<String> names = new ArrayList<>();
    for (String item : list.split(",")) {
      int colon = item.lastIndexOf(':');
      names.add((colon < 0 ? item : item.substring(0, colon)).trim());
    }
    return String.join(",", names);
  }
}
