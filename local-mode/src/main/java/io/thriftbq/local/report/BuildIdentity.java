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
 * Which build of each of the project's modules a run used: a digest of the module's classes as this
 * JVM loads them. Local mode's bundled jar takes the other modules from wherever Maven found them
 * (a stale copy in the local repository included), so two runs compare like for like only when
 * their digests match; a report says it without anyone having to remember how the jar was built.
 *
 * @param classDigests the first 12 hex digits of the SHA-256 over each module's class files (names
 *     and bytes, in name order), by module; or why it could not be taken
 */
public record BuildIdentity(Map<String, String> classDigests) {
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
    classDigests = Collections.unmodifiableMap(new LinkedHashMap<>(classDigests));
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
   * The digest of the class files under {@code packages} (paths ending in '/') in {@code location},
   * a directory of classes or a jar: the same classes give the same digest in either.
   */
  static String digest(Path location, List<String> packages) throws IOException {
    Map<String, byte[]> classes = new TreeMap<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          String name = location.relativize(file).toString().replace('\\', '/');
          if (isClassIn(name, packages) && Files.isRegularFile(file)) {
            classes.put(name, Files.readAllBytes(file));
          }
        }
      }
    } else {
      try (ZipFile jar = new ZipFile(location.toFile())) {
        List<ZipEntry> entries = new ArrayList<>();
        jar.stream().filter(e -> isClassIn(e.getName(), packages)).forEach(entries::add);
        for (ZipEntry entry : entries) {
          try (InputStream in = jar.getInputStream(entry)) {
            classes.put(entry.getName(), in.readAllBytes());
          }
        }
      }
    }
    if (classes.isEmpty()) {
      throw new IOException("no classes of " + packages + " in " + location);
    }
    MessageDigest sha256 = sha256();
    classes.forEach(
        (name, bytes) -> {
          sha256.update(name.getBytes(StandardCharsets.UTF_8));
          sha256.update((byte) 0);
          sha256.update(bytes);
        });
    return HexFormat.of().formatHex(sha256.digest()).substring(0, DIGEST_HEX_DIGITS);
  }

  private static boolean isClassIn(String name, List<String> packages) {
    return name.endsWith(".class") && packages.stream().anyMatch(name::startsWith);
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
    classDigests.forEach((module, digest) -> parts.add(module + " " + digest));
    return String.join(", ", parts);
  }
}
