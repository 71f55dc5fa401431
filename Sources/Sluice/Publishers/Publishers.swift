/// A namespace for types that serve as publishers.
///
/// ```swift
/// let publisher = Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3])
/// ```
public enum Publishers {}
