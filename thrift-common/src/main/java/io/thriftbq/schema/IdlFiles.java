package io.thriftbq.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * Where the IDL files are read from. Local paths are parsed in place; a path with a scheme ({@code
 * gs://bucket/events.thrift}, or any scheme Beam's {@link FileSystems} knows) is copied with its
 * includes into a temporary directory that mirrors the remote layout, so relative includes keep
 * working. This happens once, at launch: workers receive the parsed struct, never the files.
 */
public final class IdlFiles {
  private static final Pattern INCLUDE =
      Pattern.compile("^\\s*include\\s+[\"']([^\"']+)[\"']", Pattern.MULTILINE);

  /** A root file and include directories on the local disk. */
  public record Local(Path idlFile, List<Path> includePaths) {}

  private IdlFiles() {}

  /** True when {@code path} names a file through a Beam file system rather than a local path. */
  public static boolean isRemote(String path) {
    int colon = path.indexOf("://");
    return colon > 0 && path.substring(0, colon).chars().allMatch(Character::isLetter);
  }

  /**
   * The local files to parse for {@code idlPath} and {@code includePaths}.
   *
   * @throws IllegalArgumentException when a file cannot be read, saying which and why
   */
  public static Local localize(String idlPath, List<String> includePaths) {
    boolean remote = isRemote(idlPath) || includePaths.stream().anyMatch(IdlFiles::isRemote);
    if (!remote) {
      return new Local(Path.of(idlPath), includePaths.stream().map(Path::of).toList());
    }
    try {
      return new Mirror(Files.createTempDirectory("thrift-idl")).copy(idlPath, includePaths);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot copy the IDL " + idlPath + " to read it: " + e.getMessage(), e);
    }
  }

  /** Copies remote files to {@code root/<scheme>/<authority and path>}. */
  private static final class Mirror {
    private final Path root;

    Mirror(Path root) {
      this.root = root;
    }

    Local copy(String idlPath, List<String> includePaths) throws IOException {
      List<ResourceId> includeDirs = new ArrayList<>();
      List<Path> localIncludeDirs = new ArrayList<>();
      for (String include : includePaths) {
        ResourceId dir = resource(include, true);
        includeDirs.add(dir);
        Path local = localPathOf(dir);
        Files.createDirectories(local);
        localIncludeDirs.add(local);
      }
      ResourceId rootFile = resource(idlPath, false);
      if (!exists(rootFile)) {
        throw new IllegalArgumentException(
            "IDL file " + idlPath + " does not exist or cannot be read: check --thriftIdl");
      }
      Deque<ResourceId> pending = new ArrayDeque<>();
      Set<String> seen = new HashSet<>();
      pending.add(rootFile);
      while (!pending.isEmpty()) {
        ResourceId file = pending.poll();
        if (!seen.add(file.toString())) {
          continue;
        }
        String text = read(file);
        Path local = localPathOf(file);
        Files.createDirectories(local.getParent());
        Files.writeString(local, text, StandardCharsets.UTF_8);
        Matcher include = INCLUDE.matcher(text);
        while (include.find()) {
          ResourceId found = find(file.getCurrentDirectory(), includeDirs, include.group(1));
          // A missing include is left for the parser, which reports it with file and line.
          if (found != null) {
            pending.add(found);
          }
        }
      }
      return new Local(localPathOf(rootFile), localIncludeDirs);
    }

    /** Beam's local file system does not parse {@code file://} URIs into resources: we do. */
    private static ResourceId resource(String spec, boolean directory) {
      if (spec.startsWith("file:")) {
        return FileSystems.matchNewResource(
            Path.of(java.net.URI.create(spec)).toString(), directory);
      }
      return FileSystems.matchNewResource(spec, directory);
    }

    private static ResourceId find(ResourceId dir, List<ResourceId> includeDirs, String name)
        throws IOException {
      List<ResourceId> candidates = new ArrayList<>();
      candidates.add(dir.resolve(name, StandardResolveOptions.RESOLVE_FILE));
      for (ResourceId includeDir : includeDirs) {
        candidates.add(includeDir.resolve(name, StandardResolveOptions.RESOLVE_FILE));
      }
      for (ResourceId candidate : candidates) {
        if (exists(candidate)) {
          return candidate;
        }
      }
      return null;
    }

    private static boolean exists(ResourceId file) throws IOException {
      MatchResult match = FileSystems.match(file.toString());
      return match.status() == MatchResult.Status.OK && !match.metadata().isEmpty();
    }

    private static String read(ResourceId file) throws IOException {
      try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }

    private Path localPathOf(ResourceId resource) {
      String text = resource.toString();
      int colon = text.indexOf("://");
      String scheme = colon > 0 ? text.substring(0, colon) : "file";
      String rest = colon > 0 ? text.substring(colon + 3) : text;
      Path local = root.resolve(scheme);
      for (String part : rest.split("/")) {
        if (part.isEmpty() || part.equals(".")) {
          continue;
        }
        local = part.equals("..") ? local.getParent() : local.resolve(part);
        if (!local.startsWith(root.resolve(scheme))) {
          throw new IllegalArgumentException(
              "The include " + text + " leaves its file system's root: check the include path");
        }
      }
      return local;
    }
  }
}
