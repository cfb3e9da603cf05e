package io.thriftbq.datagen;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.ThriftSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * A union with no members has no valid value (a union holds exactly one): the generator never sets
 * an optional field of one, and a union never chooses such a member, so every event it writes is
 * one the pipeline takes.
 */
@RunWith(JUnit4.class)
public class MemberlessUnionTest {
  @ClassRule public static final TemporaryFolder FOLDER = new TemporaryFolder();

  private static ThriftSource source(String struct) throws IOException {
    Path idl = FOLDER.getRoot().toPath().resolve("memberless.thrift");
    if (!Files.exists(idl)) {
      Files.writeString(
          idl,
          "union NoChoice {}\n"
              + "struct Holder { 1: optional NoChoice never  2: optional i32 x }\n"
              + "union Either { 1: NoChoice never  2: i32 x  3: string s }\n",
          StandardCharsets.UTF_8);
    }
    return ThriftSource.idl(idl.toString(), List.of(), struct);
  }

  @Test
  public void anOptionalFieldOfAMemberlessUnionIsNeverSet() throws Exception {
    for (boolean complete : new boolean[] {false, true}) {
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder()
                  .source(source("Holder"))
                  .protocol(ThriftProtocol.BINARY)
                  .completeObjects(complete)
                  .optionalFieldProbability(0.9)
                  .build());
      List<Short> ids = new ArrayList<>();
      for (long n = 0; n < 50; n++) {
        ids.addAll(topLevelFieldIds(generator.serialize(n)));
      }
      assertTrue("x was never set", ids.contains((short) 2));
      assertTrue("the memberless union was set: " + ids, !ids.contains((short) 1));
    }
  }

  @Test
  public void aUnionNeverChoosesAMemberlessUnionMember() throws Exception {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .source(source("Either"))
                .protocol(ThriftProtocol.BINARY)
                .build());
    List<Short> chosen = new ArrayList<>();
    for (long n = 0; n < 50; n++) {
      List<Short> ids = topLevelFieldIds(generator.serialize(n));
      assertEquals("a union sets exactly one member", 1, ids.size());
      chosen.add(ids.get(0));
    }
    assertTrue(chosen.contains((short) 2) && chosen.contains((short) 3));
    assertTrue("the memberless union was chosen: " + chosen, !chosen.contains((short) 1));
  }

  private static List<Short> topLevelFieldIds(byte[] event) throws TException {
    TProtocol in =
        ThriftProtocol.BINARY.newReader(new TMemoryInputTransport(event), 1 << 20, 1 << 20);
    List<Short> ids = new ArrayList<>();
    in.readStructBegin();
    while (true) {
      TField field = in.readFieldBegin();
      if (field.type == TType.STOP) {
        return ids;
      }
      ids.add(field.id);
      TProtocolUtil.skip(in, field.type);
      in.readFieldEnd();
    }
  }
}
