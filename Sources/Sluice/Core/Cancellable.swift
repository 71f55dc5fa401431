/// A protocol indicating that an activity or action supports cancellation.
///
/// Calling ``cancel()`` frees up any allocated resources and stops side effects such as
/// timers and network activity. `cancel()` is idempotent and may be called from any thread.
///
/// ```swift
/// let cancellable: any Cancellable = publisher.sink { print($0) }
/// cancellable.cancel()
/// ```
public protocol Cancellable {
    /// Cancels the activity.
    ///
    /// ```swift
    /// subscription.cancel()
    /// ```
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable, type-erased, in the specified collection.
    ///
    /// ```swift
    /// var bag: [AnyCancellable] = []
    /// publisher.sink { print($0) }.store(in: &bag)
    /// ```
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable, type-erased, in the specified set.
    ///
    /// ```swift
    /// var cancellables = Set<AnyCancellable>()
    /// publisher.sink { print($0) }.store(in: &cancellables)
    /// ```
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
