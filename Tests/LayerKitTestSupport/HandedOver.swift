/// A value handed to another thread: the thread that hands it over does not touch it until that thread
/// says (through a semaphore or a join) that it is done. That ordering, which the compiler cannot see,
/// is what makes the hand-over safe; tests of layers changed on background threads use it, as apps do
/// with Core Animation's layers.
public struct HandedOver<Value>: @unchecked Sendable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }
}
