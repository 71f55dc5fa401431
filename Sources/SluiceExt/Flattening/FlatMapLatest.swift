import Sluice

extension Publisher {
    /// Maps each value to a publisher and delivers the values of the latest one only (CombineExt's
    /// `flatMapLatest`): `map(transform).switchToLatest()`. A new value cancels the previous inner publisher;
    /// demand, threads and completion are `switchToLatest`'s.
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P, isolation: (any Actor)? = #isolation
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform, isolation: isolation).switchToLatest()
    }
}
