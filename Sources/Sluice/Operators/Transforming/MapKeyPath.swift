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
            let step = MapStep<Upstream.Output, Output, Failure>(transform: { $0[keyPath: keyPath] })
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber))
        }

        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
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
            let step = MapStep<Upstream.Output, Output, Failure>(transform: { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) })
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber))
        }

        @inlinable
        init(upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
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
            let step = MapStep<Upstream.Output, Output, Failure>(transform: {
                ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
            })
            upstream.receive(subscriber: OperatorSubscriber(step: step, downstream: subscriber))
        }

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }
    }
}

extension Publisher {
    /// Republishes the value of `keyPath` of each element.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Republishes the values of two key paths of each element, as a tuple.
    @inlinable
    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Republishes the values of three key paths of each element, as a tuple.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
