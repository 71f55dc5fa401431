extension Publishers {
    /// A publisher that republishes the value of a key path of each element.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one reads.
        public let upstream: Upstream

        /// The key path read from each element.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Subscribes `subscriber` to the upstream through the key path.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = keyPath
            let step = KeyPathStep<Upstream.Output, Output, Failure>(keyPaths: keyPath) {
                $0[keyPath: keyPath]
            }
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber), isolation: isolation)
        }

        /// The actor the key paths are read on; nil: on the upstream's thread (see
        /// `map(_:isolation:)` over one key path).
        public let isolation: (any Actor)?

        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>, isolation: (any Actor)?) {
            self.upstream = upstream
            self.keyPath = keyPath
            self.isolation = isolation
        }
    }

    /// A publisher that republishes the values of two key paths of each element, as a tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        public typealias Output = (Output0, Output1)
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one reads.
        public let upstream: Upstream

        /// The key path of the tuple's first value.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of the tuple's second value.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Subscribes `subscriber` to the upstream through the key paths.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1) = (keyPath0, keyPath1)
            let step = KeyPathStep<Upstream.Output, Output, Failure>(
                keyPaths: keyPath0,
                keyPath1
            ) { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) }
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber), isolation: isolation)
        }

        /// The actor the key paths are read on; nil: on the upstream's thread (see
        /// `map(_:isolation:)` over one key path).
        public let isolation: (any Actor)?

        @inlinable
        init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            isolation: (any Actor)?
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.isolation = isolation
        }
    }

    /// A publisher that republishes the values of three key paths of each element, as a tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        public typealias Output = (Output0, Output1, Output2)
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements this one reads.
        public let upstream: Upstream

        /// The key path of the tuple's first value.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of the tuple's second value.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// The key path of the tuple's third value.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Subscribes `subscriber` to the upstream through the key paths.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1, keyPath2) = (keyPath0, keyPath1, keyPath2)
            let step = KeyPathStep<Upstream.Output, Output, Failure>(
                keyPaths: keyPath0,
                keyPath1,
                keyPath2
            ) { ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2]) }
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber), isolation: isolation)
        }

        /// The actor the key paths are read on; nil: on the upstream's thread (see
        /// `map(_:isolation:)` over one key path).
        public let isolation: (any Actor)?

        @inlinable
        init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>,
            isolation: (any Actor)?
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
            self.isolation = isolation
        }
    }
}

/// The step of `map` over key paths: reads them, and reads as Combine's does ("ValueForKey",
/// its mirror naming the key paths).
@usableFromInline
struct KeyPathStep<Input, Output, Failure: Error>: OperatorStep {
    @usableFromInline typealias UpstreamFailure = Failure
    /// The one, two or three key paths read (held apart, so that subscribing makes no array).
    @usableFromInline let keyPaths: (AnyKeyPath, AnyKeyPath?, AnyKeyPath?)
    @usableFromInline let read: (Input) -> Output

    @inlinable
    init(
        keyPaths first: AnyKeyPath,
        _ second: AnyKeyPath? = nil,
        _ third: AnyKeyPath? = nil,
        read: @escaping (Input) -> Output
    ) {
        keyPaths = (first, second, third)
        self.read = read
    }

    @inlinable var name: String { keyPaths.1 == nil ? "ValueForKey" : "ValueForKeys" }
    @inlinable static var mirror: StepMirror { .empty }
    @inlinable func receive(_ input: Input) -> StepResult<Output, Failure> { .emit(read(input)) }

    /// `keyPath`, or `keyPath0`, `keyPath1`, … when there are several.
    @usableFromInline var constantMirrorChildren: [Mirror.Child]? {
        guard keyPaths.1 != nil else { return [("keyPath", keyPaths.0)] }
        let all = [keyPaths.0, keyPaths.1, keyPaths.2].compactMap { $0 }
        return all.enumerated().map { ("keyPath\($0.offset)", $0.element) }
    }
}

extension Publishers.MapKeyPath: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.MapKeyPath2: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.MapKeyPath3: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

// Two forms of each `map` over key paths. A key path the compiler knows to be `Sendable` (one to
// a property of a value type or of a nonisolated class) is read on the upstream's thread, as
// in Combine. Any other, such as one to a main-actor property, may belong to the caller's
// actor, so it is read there, as an operator's closure is (see `map(_:isolation:)`).
extension Publisher {
    /// Republishes the value of `keyPath` of each element, read on whatever thread the
    /// upstream delivers from: the key path is `Sendable`, so it touches no actor's state.
    @inlinable
    public func map<T>(_ keyPath: any KeyPath<Output, T> & Sendable) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath, isolation: nil)
    }

    /// Republishes the values of two `Sendable` key paths of each element, as a tuple, read on
    /// whatever thread the upstream delivers from.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: any KeyPath<Output, T0> & Sendable, _ keyPath1: any KeyPath<Output, T1> & Sendable
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, isolation: nil)
    }

    /// Republishes the values of three `Sendable` key paths of each element, as a tuple, read
    /// on whatever thread the upstream delivers from.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: any KeyPath<Output, T0> & Sendable,
        _ keyPath1: any KeyPath<Output, T1> & Sendable,
        _ keyPath2: any KeyPath<Output, T2> & Sendable
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(
            upstream: self,
            keyPath0: keyPath0,
            keyPath1: keyPath1,
            keyPath2: keyPath2,
            isolation: nil
        )
    }
}

extension Publisher {
    /// Republishes the value of `keyPath` of each element.
    ///
    /// The form for a key path that may not be `Sendable` (one to an actor-isolated property, or one held in
    /// a variable of type `KeyPath`): made in actor-isolated code (`isolation` defaults to the caller's
    /// actor), it is read on that actor, after a hop where the value arrives elsewhere, as
    /// `map(_:isolation:)` runs its closure. Outside actors, on the upstream's thread.
    @inlinable
    public func map<T>(
        _ keyPath: KeyPath<Output, T>,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath, isolation: isolation)
    }

    /// Republishes the values of two key paths of each element, as a tuple, read where
    /// the one-key-path `map(_:isolation:)` says.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, isolation: (any Actor)? = #isolation
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, isolation: isolation)
    }

    /// Republishes the values of three key paths of each element, as a tuple, read where
    /// the one-key-path `map(_:isolation:)` says.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>,
        _ keyPath1: KeyPath<Output, T1>,
        _ keyPath2: KeyPath<Output, T2>,
        isolation: (any Actor)? = #isolation
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(
            upstream: self,
            keyPath0: keyPath0,
            keyPath1: keyPath1,
            keyPath2: keyPath2,
            isolation: isolation
        )
    }
}
