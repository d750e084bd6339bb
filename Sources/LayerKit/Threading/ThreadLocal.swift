import Foundation

/// A value each thread has its own of, made on the thread's first use and released when the thread ends
/// (a pthread key with a destructor).
///
/// Threads: `value` is the calling thread's; no thread can reach another's. Cost: one
/// `pthread_getspecific` per access.
/// Sendable (checked): the key and the factory are constants; the factory runs on the thread that
/// first asks.
final class ThreadLocal<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            // The thread ended: release what it held.
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        precondition(created == 0, "pthread_key_create failed (\(created)): out of thread-local keys")
        self.key = key
    }

    /// The calling thread's value.
    var value: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as! Value
        }
        let made = make()
        pthread_setspecific(key, Unmanaged.passRetained(made as AnyObject).toOpaque())
        return made
    }
}
