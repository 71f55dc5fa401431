import Sluice

/// What `combineLatest(ifEmpty:)` of an empty collection of publishers does.
public enum EmptyCombination: Sendable {
    /// Finish at once, without a value (CombineExt's `combineLatest()`).
    case finish
    /// Send one empty array, then finish.
    case sendEmptyArray
}

extension Collection where Element: Publisher {
    /// Merges the publishers' values into one stream (CombineExt's `merge()`): `Publishers.MergeMany`, so demand
    /// is shared as `merge(with:)` shares it, the stream finishes when they all have, and the first failure ends it.
    public func merge() -> Publishers.MergeMany<Element> {
        Publishers.MergeMany(self)
    }

    /// The latest value of every publisher, in order, each time one sends once all have sent (CombineExt's
    /// `combineLatest()`); an empty collection finishes at once. Demand, threads, endings: `combineLatest(_:)`'s.
    ///
    /// <!-- snippet: CombineLatestMany -->
    /// ```swift
    /// let sensors = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
    /// let recorder = RecordingSubscriber<[Int], Never>()
    /// sensors.combineLatest().subscribe(recorder)
    /// sensors[0].send(20)
    /// #expect(recorder.values.isEmpty)   // the second sensor has not sent yet
    /// sensors[1].send(18)
    /// sensors[0].send(21)
    /// #expect(recorder.values == [[20, 18], [21, 18]])
    /// ```
    @inlinable
    public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
        combineLatest(ifEmpty: .finish)
    }

    /// `combineLatest()`, saying what an empty collection does: finish at once without a value (`.finish`,
    /// CombineExt's behaviour), or send one empty array and then finish (`.sendEmptyArray`, which CombineExt
    /// declined to offer), once the subscriber asks for it. A collection with publishers behaves as `combineLatest()`.
    ///
    /// <!-- snippet: CombineLatestIfEmpty -->
    /// ```swift
    /// let filters: [AnyPublisher<Bool, Never>] = []   // none chosen yet
    /// let recorder = RecordingSubscriber<Bool, Never>()
    /// filters.combineLatest(ifEmpty: .sendEmptyArray).map { $0.allSatisfy { $0 } }.subscribe(recorder)
    /// #expect(recorder.values == [true])   // no filter rejects anything
    /// ```
    @inlinable
    public func combineLatest(
        ifEmpty behavior: EmptyCombination
    ) -> AnyPublisher<[Element.Output], Element.Failure> {
        guard !isEmpty else {
            switch behavior {
            case .finish: return Empty().eraseToAnyPublisher()
            case .sendEmptyArray: return Just([]).setFailureType(to: Element.Failure.self).eraseToAnyPublisher()
            }
        }
        return TupleMany<Element, LatestColumn<Element.Output>>(Array(self)).eraseToAnyPublisher()
    }

    /// Arrays of the publishers' values, the n-th of each in the n-th array, in order (CombineExt's `zip()`);
    /// an empty collection finishes at once. Demand, threads and endings are those of `zip(_:)`.
    @inlinable
    public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return TupleMany<Element, QueueColumn<Element.Output>>(Array(self)).eraseToAnyPublisher()
    }
}

extension Publisher {
    /// This publisher's latest value and those of `others`, as one array in that order, each time one of them
    /// sends once all have sent (CombineExt's `combineLatest(with:)`). With no others, each value alone, in an array.
    @inlinable
    public func combineLatest<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        TupleMany<AnyPublisher<Output, Failure>, LatestColumn<Output>>(
            [eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }
        )
        .eraseToAnyPublisher()
    }

    /// `combineLatest(with:)` of the others listed (CombineExt's variadic form).
    @inlinable
    public func combineLatest<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        combineLatest(with: others)
    }

    /// This publisher's values and those of `others`, the n-th of each in the n-th array, in that order
    /// (CombineExt's `zip(with:)`). With no others, each value of this publisher alone, in an array.
    @inlinable
    public func zip<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        TupleMany<AnyPublisher<Output, Failure>, QueueColumn<Output>>(
            [eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }
        )
        .eraseToAnyPublisher()
    }

    /// `zip(with:)` of the others listed (CombineExt's variadic form).
    @inlinable
    public func zip<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        zip(with: others)
    }
}
