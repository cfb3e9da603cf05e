struct Node {
  1: required string label,
  2: optional list<Node> children,
}
