extension Publishers {
    /// A publisher that encodes each element with a ``TopLevelEncoder``.
    ///
    /// An encoding error cancels the upstream and fails the stream, as `tryMap` does. As in
    /// Combine, the downstream gets a subscription of the operator's own ("Encode" in
    /// `print()`), which passes demand upstream one for one; a second upstream subscription is
    /// cancelled, and nothing reaches either side once the stream has ended. A value or a
    /// completion that a misbehaving upstream sends before its subscription goes downstream.
    ///
    /// Where the encoder runs: on ``isolation`` when it has one (see ``Publisher/encode(encoder:isolation:)``),
    /// otherwise on the upstream's thread.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher whose elements this one encodes.
        public let upstream: Upstream

        @usableFromInline let encoder: Coder

        /// The actor the encoder runs on; nil: on the upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher encoding the elements of `upstream` with `encoder`, on
        /// `isolation` (the caller's actor by default).
        @inlinable
        public init(upstream: Upstream, encoder: Coder, isolation: (any Actor)? = #isolation) {
            self.upstream = upstream
            self.encoder = encoder
            self.isolation = isolation
        }

        /// Subscribes `subscriber` to the upstream through the encoder.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = encoder
            let step = TryMapStep<Upstream.Output, Output, Upstream.Failure>(name: "Encode") { try encoder.encode($0) }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(
                    step: step,
                    downstream: subscriber,
                    early: .passValuesAndCompletions,
                    mirror: .coder
                ),
                isolation: isolation)
        }
    }

    /// A publisher that decodes each element with a ``TopLevelDecoder``.
    ///
    /// A decoding error cancels the upstream and fails the stream, as `tryMap` does. The
    /// downstream's subscription is the operator's own ("Decode"), as for
    /// ``Publishers/Encode``, and so does where the decoder runs.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher whose elements this one decodes.
        public let upstream: Upstream

        @usableFromInline let decoder: Coder

        /// The actor the decoder runs on; nil: on the upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher decoding the elements of `upstream` with `decoder`, on
        /// `isolation` (the caller's actor by default).
        @inlinable
        public init(upstream: Upstream, decoder: Coder, isolation: (any Actor)? = #isolation) {
            self.upstream = upstream
            self.decoder = decoder
            self.isolation = isolation
        }

        /// Subscribes `subscriber` to the upstream through the decoder.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = decoder
            let step = TryMapStep<Upstream.Output, Output, Upstream.Failure>(name: "Decode") {
                try decoder.decode(Output.self, from: $0)
            }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(
                    step: step,
                    downstream: subscriber,
                    early: .passValuesAndCompletions,
                    mirror: .coder
                ),
                isolation: isolation)
        }
    }
}

extension Publishers.Encode: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.Decode: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

// Two forms of `encode` and of `decode`. A `Sendable` coder (`JSONEncoder`, a struct) runs on the
// upstream's thread, as in Combine. Any other, such as a main-actor class conforming as
// `@MainActor TopLevelDecoder` (which cannot meet a `Sendable` requirement), may belong to the
// caller's actor, so it runs there, as an operator's closure does.
extension Publisher where Output: Encodable {
    /// Encodes each element with `encoder`, on whatever thread the upstream delivers from: the
    /// encoder is `Sendable`, so it touches no actor's state. An error fails the stream.
    @inlinable
    public func encode<Coder: TopLevelEncoder & Sendable>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder, isolation: nil)
    }
}

extension Publisher {
    /// Decodes each element as `type` with `decoder`, on whatever thread the upstream delivers
    /// from: the decoder is `Sendable`, so it touches no actor's state. An error fails the stream.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder & Sendable>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder, isolation: nil)
    }
}

extension Publisher where Output: Encodable {
    /// Encodes each element with `encoder`; an error fails the stream.
    ///
    /// The form for an encoder that may not be `Sendable`: made in actor-isolated code (`isolation` defaults
    /// to the caller's actor), it runs on that actor, after a hop where the value arrives elsewhere, as
    /// `map(_:isolation:)` runs its closure. Outside actors, on the upstream's thread.
    @inlinable
    public func encode<Coder: TopLevelEncoder>(
        encoder: Coder, isolation: (any Actor)? = #isolation
    ) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder, isolation: isolation)
    }
}

extension Publisher {
    /// Decodes each element as `type` with `decoder`; an error fails the stream.
    ///
    /// The form for a decoder that may not be `Sendable`: it runs where
    /// ``Publisher/encode(encoder:isolation:)`` says an encoder runs.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder, isolation: (any Actor)? = #isolation
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder, isolation: isolation)
    }
}
