/// A series of name lists that only grow — a log reader's list of one chain's names, handed to its traces anew
/// each time a name is added — so that each later list starts with every name of each earlier one, in the same
/// places. An analysis that mapped one list of the lineage maps only the names a later one adds
/// (``CompactNameMapping``): a log with thousands of distinct handler names (names holding an id) is mapped once
/// per name, not once per name for each trace that adds one.
@usableFromInline
package final class NameLineage: Sendable {
    /// A lineage of its own.
    package init() {}
}
