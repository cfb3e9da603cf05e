// Comments of every kind before, beside and after fields: a field with an id keeps it, one
// without gets the compiler's (-1, -2, ...), as `thrift --gen java` numbers them here.
namespace java commented
/** A struct. */
struct D {
  /** Doc comment. */
  1: optional i32 a,
  /*
   * A block comment.
   */
  2: optional i32 b,
  // A line comment.
  3: optional i32 c,
  # A hash comment.
  4: optional i32 d,
  /** doc */ 5: optional i32 e,
  6: optional i32 f, // trailing
  7: optional i32 g /* trailing block */,
  /** 🚀 é */ 8: optional i32 j,
  /** doc on implicit */
  optional i32 h,
  optional i32 i /** trailing doc */
}
