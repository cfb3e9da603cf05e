package io.thriftbq.local.report;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.DatagenPipeline;
import io.thriftbq.ingest.IngestionPipeline;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Which build of each of the project's modules a run used: a digest of the module's classes and
 * resources as this JVM loads them. Local mode's bundled jar takes the other modules from wherever
 * Maven found them (a stale copy in the local repository included), so two runs compare like for
 * like only when their digests match; a report says it without anyone having to remember how the
 * jar was built. Resources count because some decide a run's speed as much as a class does: the
 * BigQuery emulator's launcher is a Python resource of local mode.
 *
 * @param digests the first 12 hex digits of the SHA-256 over each module's files under its packages
 *     (classes and resources; names and bytes, in name order), by module; or why it could not be
 *     taken
 */
public record BuildIdentity(Map<String, String> digests) {
  private static final int DIGEST_HEX_DIGITS = 12;

  /** Each module: a class it holds (to find where it was loaded from) and its packages. */
  private record Module(String name, Class<?> anchor, List<String> packages) {}

  private static final List<Module> MODULES =
      List.of(
          new Module(
              "thrift-common",
              ThriftProtocol.class,
              List.of(
                  "io/thriftbq/codec/",
                  "io/thriftbq/schema/",
                  "io/thriftbq/kafka/",
                  "io/thriftbq/change/",
                  "io/thriftbq/template/")),
          new Module("ingestion-pipeline", IngestionPipeline.class, List.of("io/thriftbq/ingest/")),
          new Module("datagen-pipeline", DatagenPipeline.class, List.of("io/thriftbq/datagen/")),
          new Module("local-mode", BuildIdentity.class, List.of("io/thriftbq/local/")));

  private static volatile BuildIdentity current;

  public BuildIdentity {
    digests = Collections.unmodifiableMap(new LinkedHashMap<>(digests));
  }

  /** This JVM's modules, digested once. */
  public static BuildIdentity current() {
    BuildIdentity identity = current;
    if (identity == null) {
      Map<String, String> digests = new LinkedHashMap<>();
      for (Module module : MODULES) {
        digests.put(module.name(), digestOrReason(module));
      }
      identity = new BuildIdentity(digests);
      current = identity;
    }
    return identity;
  }

  private static String digestOrReason(Module module) {
    try {
      Path location =
          Path.of(module.anchor().getProtectionDomain().getCodeSource().getLocation().toURI());
      return digest(location, module.packages());
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return "unknown (" + e + ")";
    }
  }

  /**
   * The digest of the files under {@code packages} (paths ending in '/') in {@code location}, a
   * directory of classes or a jar: the same files give the same digest in either.
   */
  static String digest(Path location, List<String> packages) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> walk = Files.walk(location)) {
        for (Path file : (Iterable<Path>) walk::iterator) {
          String name = location.relativize(file).toString().replace('\\', '/');
          if (isIn(name, packages) && Files.isRegularFile(file)) {
            files.put(name, Files.readAllBytes(file));
          }
        }
      }
    } else {
      try (ZipFile jar = new ZipFile(location.toFile())) {
        List<ZipEntry> entries = new ArrayList<>();
        jar.stream()
            .filter(e -> !e.isDirectory() && isIn(e.getName(), packages))
            .forEach(entries::add);
        for (ZipEntry entry : entries) {
          try (InputStream in = jar.getInputStream(entry)) {
            files.put(entry.getName(), in.readAllBytes());
          }
        }
      }
    }
    if (files.keySet().stream().noneMatch(name -> name.endsWith(".class"))) {
      throw new IOException("no classes of " + packages + " in " + location);
    }
    MessageDigest sha256 = sha256();
    files.forEach(
        (name, bytes) -> {
          sha256.update(name.getBytes(StandardCharsets.UTF_8));
          sha256.update((byte) 0);
          sha256.update(bytes);
        });
    return HexFormat.of().formatHex(sha256.digest()).substring(0, DIGEST_HEX_DIGITS);
  }

  private static boolean isIn(String name, List<String> packages) {
    return packages.stream().anyMatch(name::startsWith);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** One line for the text report: {@code module digest, ...}. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    digests.forEach((module, digest) -> parts.add(module + " " + digest));
    return String.join(", ", parts);
  }
}
