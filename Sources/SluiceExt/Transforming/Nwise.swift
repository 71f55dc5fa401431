import Sluice

extension Publisher {
    /// Each run of `size` consecutive values, as an array, oldest first (CombineExt's `nwise`): nothing for the
    /// first `size - 1` values, then one array per value. Traps if `size` is less than 2. Demand: each value
    /// that completes no array yet is replaced by one more requested upstream, so demand counts arrays.
    ///
    /// <!-- snippet: NwiseWindows -->
    /// ```swift
    /// let recorder = RecordingSubscriber<[Int], Never>()
    /// [1, 2, 3, 4].publisher.nwise(3).subscribe(recorder)
    /// #expect(recorder.values == [[1, 2, 3], [2, 3, 4]])
    /// ```
    @inlinable
    public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
        precondition(size > 1, "nwise: size must be greater than 1, got \(size)")
        return NwisePublisher(upstream: self, size: size).eraseToAnyPublisher()
    }

    /// Each value with the one before it (CombineExt's `pairwise`): `nwise(2)` as tuples.
    @inlinable
    public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
        NwisePublisher(upstream: self, size: 2).map({ ($0[0], $0[1]) }, isolation: nil).eraseToAnyPublisher()
    }
}

@usableFromInline
struct NwisePublisher<Upstream: Publisher>: Publisher {
    @usableFromInline typealias Output = [Upstream.Output]
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let size: Int

    @inlinable
    init(upstream: Upstream, size: Int) {
        self.upstream = upstream
        self.size = size
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(
            OperatorSubscriber(step: NwiseStep<Upstream.Output, Failure>(size: size), downstream: subscriber)
        )
    }
}

@usableFromInline
struct NwiseStep<Input, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    @usableFromInline let size: Int
    @usableFromInline var window: [Input] = []
    @usableFromInline var name: String { "Nwise" }

    @inlinable
    init(size: Int) {
        self.size = size
        window.reserveCapacity(size)
    }

    @inlinable
    mutating func receive(_ input: Input) -> StepResult<[Input], Failure> {
        if window.count == size { window.removeFirst() }
        window.append(input)
        return window.count == size ? .emit(window) : .drop
    }
}
