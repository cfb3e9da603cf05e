// A recursive struct: the schema model must reject it with a clear message.
namespace java io.thriftbq.testing.recursive

struct TreeNode {
  1: required string label,
  2: optional list<TreeNode> children,
}
