extension Publishers {
    /// A publisher that encodes each element with a ``TopLevelEncoder``.
    ///
    /// An encoding error cancels the upstream and fails the stream, as `tryMap` does. As in
    /// Combine, the downstream gets a subscription of the operator's own ("Encode" in
    /// `print()`), which passes demand upstream one for one; a second upstream subscription is
    /// cancelled, and nothing reaches either side once the stream has ended. A value or a
    /// completion that a misbehaving upstream sends before its subscription goes downstream.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher whose elements this one encodes.
        public let upstream: Upstream

        @usableFromInline let encoder: Coder

        /// Creates a publisher encoding the elements of `upstream` with `encoder`.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Subscribes `subscriber` to the upstream through the encoder.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = encoder
            let step = TryMapStep<Upstream.Output, Output, Upstream.Failure>(name: "Encode") { try encoder.encode($0) }
            upstream.receive(subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .passValuesAndCompletions, mirror: .coder))
        }
    }

    /// A publisher that decodes each element with a ``TopLevelDecoder``.
    ///
    /// A decoding error cancels the upstream and fails the stream, as `tryMap` does. The
    /// downstream's subscription is the operator's own ("Decode"), as for
    /// ``Publishers/Encode``.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher whose elements this one decodes.
        public let upstream: Upstream

        @usableFromInline let decoder: Coder

        /// Creates a publisher decoding the elements of `upstream` with `decoder`.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Subscribes `subscriber` to the upstream through the decoder.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = decoder
            let step = TryMapStep<Upstream.Output, Output, Upstream.Failure>(name: "Decode") { try decoder.decode(Output.self, from: $0) }
            upstream.receive(subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .passValuesAndCompletions, mirror: .coder))
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes each element with `encoder`; an error fails the stream.
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes each element as `type` with `decoder`; an error fails the stream.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
