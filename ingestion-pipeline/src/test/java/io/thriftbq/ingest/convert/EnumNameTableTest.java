package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The one-pass readers' enum table: names and row costs by value, none for a sparse enum. */
public class EnumNameTableTest {
  @Rule public TemporaryFolder folder = new TemporaryFolder();

  private ThriftEnum enumOf(String idlEnum) throws Exception {
    Path idl = folder.getRoot().toPath().resolve("e.thrift");
    Files.writeString(idl, idlEnum + "\nstruct S {\n  1: optional E e,\n}\n");
    ThriftStruct struct = ThriftSource.idl(idl.toString(), List.of(), "S").resolve();
    return ((ThriftType.EnumRef) struct.fields().get(0).type()).enumType();
  }

  @Test
  public void aDenseEnumIsTabledFromItsSmallestValueWithAHoleWhereNoValueIsNamed()
      throws Exception {
    EnumNameTable table = EnumNameTable.of(enumOf("enum E { RED = -1, GREEN = 0, BLUE = 2 }"));
    assertEquals(-1, table.min);
    assertArrayEquals(new String[] {"RED", "GREEN", null, "BLUE"}, table.names);
    assertArrayEquals(new int[] {3, 5, -1, 4}, table.costs);
  }

  @Test
  public void anEnumSpreadOverTheSpanOrMoreHasNoTable() throws Exception {
    assertNull(EnumNameTable.of(enumOf("enum E { LOW = 0, HIGH = 4096 }")));
    assertEquals(
        EnumNameTable.MAX_SPAN,
        EnumNameTable.of(enumOf("enum E { LOW = 0, HIGH = 4095 }")).names.length);
  }
}
