package io.thriftbq.local.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Which build of each module ran, as a digest of its classes and resources. */
public class BuildIdentityTest {
  private static final List<String> INGEST = List.of("io/thriftbq/ingest/");

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  @Test
  public void theSameClassesGiveTheSameDigestInADirectoryAndInAJar() throws IOException {
    Map<String, byte[]> classes =
        Map.of(
            "io/thriftbq/ingest/A.class", new byte[] {1, 2, 3},
            "io/thriftbq/ingest/write/B.class", new byte[] {4, 5});
    String inDirectory = BuildIdentity.digest(directory(classes), INGEST);
    assertEquals(12, inDirectory.length());
    assertEquals(inDirectory, BuildIdentity.digest(jar(classes), INGEST));
  }

  @Test
  public void oneChangedByteOrRenamedClassChangesTheDigestAndOtherPackagesDoNot()
      throws IOException {
    String base =
        BuildIdentity.digest(
            directory(Map.of("io/thriftbq/ingest/A.class", new byte[] {1, 2, 3})), INGEST);
    assertNotEquals(
        base,
        BuildIdentity.digest(
            directory(Map.of("io/thriftbq/ingest/A.class", new byte[] {1, 2, 4})), INGEST));
    assertNotEquals(
        base,
        BuildIdentity.digest(
            directory(Map.of("io/thriftbq/ingest/C.class", new byte[] {1, 2, 3})), INGEST));
    assertEquals(
        base,
        BuildIdentity.digest(
            directory(
                Map.of(
                    "io/thriftbq/ingest/A.class", new byte[] {1, 2, 3},
                    "io/thriftbq/local/L.class", new byte[] {9},
                    "io/thriftbq/local/launcher.py", new byte[] {7})),
            INGEST));
  }

  @Test
  public void aResourceOfThePackagesCountsAsMuchAsAClass() throws IOException {
    Map<String, byte[]> withLauncher =
        Map.of(
            "io/thriftbq/ingest/A.class", new byte[] {1, 2, 3},
            "io/thriftbq/ingest/stack/launcher.py", new byte[] {7});
    String base = BuildIdentity.digest(directory(withLauncher), INGEST);
    assertEquals(base, BuildIdentity.digest(jar(withLauncher), INGEST));
    assertNotEquals(
        base,
        BuildIdentity.digest(
            directory(
                Map.of(
                    "io/thriftbq/ingest/A.class", new byte[] {1, 2, 3},
                    "io/thriftbq/ingest/stack/launcher.py", new byte[] {8})),
            INGEST));
    assertNotEquals(
        base,
        BuildIdentity.digest(
            directory(Map.of("io/thriftbq/ingest/A.class", new byte[] {1, 2, 3})), INGEST));
  }

  @Test
  public void resourcesAloneAreNotAModule() throws IOException {
    Path onlyResources = directory(Map.of("io/thriftbq/ingest/notes.txt", new byte[] {7}));
    assertThrows(IOException.class, () -> BuildIdentity.digest(onlyResources, INGEST));
  }

  @Test
  public void aPlaceWithoutTheModulesClassesIsAnErrorNotADigest() throws IOException {
    Path other = directory(Map.of("io/thriftbq/local/L.class", new byte[] {9}));
    assertThrows(IOException.class, () -> BuildIdentity.digest(other, INGEST));
  }

  @Test
  public void thisJvmsModulesAreEachDigested() {
    Map<String, String> digests = BuildIdentity.current().digests();
    assertEquals(
        List.of("thrift-common", "ingestion-pipeline", "datagen-pipeline", "local-mode"),
        List.copyOf(digests.keySet()));
    digests.forEach(
        (module, digest) -> assertTrue(module + ": " + digest, digest.matches("[0-9a-f]{12}")));
  }

  private Path directory(Map<String, byte[]> classes) throws IOException {
    Path root = folder.newFolder().toPath();
    for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
      Path file = root.resolve(entry.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, entry.getValue());
    }
    return root;
  }

  private Path jar(Map<String, byte[]> classes) throws IOException {
    Path jar = folder.newFile("classes.jar").toPath();
    try (OutputStream file = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(file)) {
      for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue());
        zip.closeEntry();
      }
    }
    return jar;
  }
}
