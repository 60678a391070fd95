/// The order in which a registry asks its members — the one ordering every part of ChainTrace uses: the chain's
/// walk, its dry run, definitions loaded from files, the linter and every diagram.
///
/// Highest weight first; among equal weights, the order the members are given in. A running registry gives its
/// members newest registration first, so a screen that appears later answers before an older one of the same
/// weight; a chain definition gives them in file order, so equal weights keep file order.
///
/// ```swift
/// RegistryOrder.arranged([("A", 1), ("B", 5), ("C", 1)], weight: \.1).map(\.0)  // ["B", "A", "C"]
/// ```
public enum RegistryOrder {
    /// `members` sorted by weight, highest first; equal weights keep their order in `members` (a stable sort).
    public static func arranged<Member>(_ members: [Member], weight: (Member) -> Int) -> [Member] {
        members.enumerated()
            .sorted { left, right in
                let (leftWeight, rightWeight) = (weight(left.element), weight(right.element))
                return leftWeight != rightWeight ? leftWeight > rightWeight : left.offset < right.offset
            }
            .map(\.element)
    }
}
