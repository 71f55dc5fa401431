import Sluice

extension Collection where Element: Publisher {
    /// Subscribes to the publishers `size` at a time, in the collection's order, and sends each batch's values
    /// zipped into arrays (CombineExt's `flatMapBatches(of:)`).
    ///
    /// A batch is `zip()` of its publishers (the last batch may be shorter). The next batch is subscribed only
    /// when the current one finishes, as `zip` does; a batch that never finishes holds back the rest for ever.
    /// The stream finishes after the last batch (at once for an empty collection); a failure in any batch fails
    /// it, and later batches are never subscribed. Traps if `size` is less than 1. Demand, threads and cancel
    /// are those of `flatMap(maxPublishers: .max(1))` and `zip`: the downstream's demand counts arrays.
    ///
    /// <!-- snippet: FlatMapBatchesPairs -->
    /// ```swift
    /// let recorder = RecordingSubscriber<[Int], Never>()
    /// [Just(1), Just(2), Just(3)].flatMapBatches(of: 2).subscribe(recorder)
    /// #expect(recorder.values == [[1, 2], [3]])
    /// #expect(recorder.completion == .finished)
    /// ```
    public func flatMapBatches(of size: Int) -> AnyPublisher<[Element.Output], Element.Failure> {
        precondition(size > 0, "flatMapBatches(of:): the batch size must be at least 1, got \(size)")
        var batches: [SubSequence] = []
        var start = startIndex
        while start != endIndex {
            let end = index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex
            batches.append(self[start..<end])
            start = end
        }
        return batches.publisher
            .setFailureType(to: Element.Failure.self)
            .flatMap(maxPublishers: .max(1), { $0.zip() }, isolation: nil)
            .eraseToAnyPublisher()
    }
}
