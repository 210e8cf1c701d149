#pragma once
// A result computed once and shared: the first caller computes it, callers
// meanwhile wait for that computation instead of starting their own, and
// every later caller gets the same object. A computation that throws (out
// of memory) leaves nothing behind: the next caller tries again.
#include <condition_variable>
#include <memory>
#include <mutex>

namespace rankscope {

template <class T>
class SharedResult {
public:
    template <class Compute>
    std::shared_ptr<const T> get(Compute &&compute) const
    {
        std::unique_lock lock(m_mutex);
        while (true) {
            if (m_value)
                return m_value;
            if (!m_computing)
                break;
            m_done.wait(lock);
        }
        m_computing = true;
        lock.unlock();
        try {
            auto value = std::make_shared<const T>(compute());
            lock.lock();
            m_value = value;
            m_computing = false;
            m_done.notify_all();
            return value;
        } catch (...) {
            lock.lock();
            m_computing = false;
            m_done.notify_all();
            throw;
        }
    }
    // The result if it is there, else null (never computes).
    std::shared_ptr<const T> ready() const
    {
        const std::lock_guard lock(m_mutex);
        return m_value;
    }
    // Takes over another's result (one whose inputs are the same).
    void adopt(std::shared_ptr<const T> value)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_value)
            m_value = std::move(value);
    }

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_done;
    mutable std::shared_ptr<const T> m_value;
    mutable bool m_computing = false;
};

} // namespace rankscope
