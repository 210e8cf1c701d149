#pragma once
// A column of plain values, as a track or side table stores them: built in
// memory while a loader appends (a std::vector underneath), or a read-only
// view into a memory-mapped index cache (load/cache/), kept alive by the
// mapping it points into. Readers see one contiguous array either way, so a
// report opened from a cache costs only the pages that are read.
//
// Mutating a mapped column first copies it into memory (loaders never see
// one; a report is immutable once loaded).
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace rankscope {

template <class T>
class Column {
    static_assert(std::is_trivially_copyable_v<T>, "a column is written and mapped as raw bytes");

public:
    using value_type = T;
    using iterator = T *;
    using const_iterator = const T *;

    Column() = default;
    Column(std::initializer_list<T> values) : m_owned(values) { sync(); }
    Column(std::size_t n, const T &value) : m_owned(n, value) { sync(); }
    Column(std::vector<T> values) : m_owned(std::move(values)) { sync(); }
    Column(const Column &other) { *this = other; }
    Column(Column &&other) noexcept { *this = std::move(other); }
    Column &operator=(const Column &other)
    {
        if (this == &other)
            return *this;
        m_owned = other.m_owned;
        m_mapping = other.m_mapping;
        if (m_mapping) {
            m_data = other.m_data;
            m_size = other.m_size;
        } else {
            sync();
        }
        return *this;
    }
    Column &operator=(Column &&other) noexcept
    {
        m_owned = std::move(other.m_owned);
        m_mapping = std::move(other.m_mapping);
        m_data = m_mapping ? other.m_data : m_owned.data();
        m_size = m_mapping ? other.m_size : m_owned.size();
        other.m_owned.clear();
        other.sync();
        return *this;
    }

    // A view of `values`, which stay valid while `mapping` lives.
    static Column mapped(std::span<const T> values, std::shared_ptr<const void> mapping)
    {
        Column column;
        column.m_mapping = std::move(mapping);
        column.m_data = const_cast<T *>(values.data()); // never written through: see detach()
        column.m_size = values.size();
        return column;
    }
    bool isMapped() const { return m_mapping != nullptr; }

    // Reading.
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T *data() const { return m_data; }
    const T &operator[](std::size_t i) const { return m_data[i]; }
    const T *begin() const { return m_data; }
    const T *end() const { return m_data + m_size; }
    const T &at(std::size_t i) const
    {
        if (i >= m_size)
            throw std::out_of_range("Column::at");
        return m_data[i];
    }
    const T &front() const { return m_data[0]; }
    const T &back() const { return m_data[m_size - 1]; }
    operator std::span<const T>() const { return {m_data, m_size}; }
    std::span<const T> span() const { return {m_data, m_size}; }
    // Bytes this column holds in memory (a mapped one: none of its own).
    std::size_t capacity() const { return m_owned.capacity(); }

    // Building (in memory).
    T *data()
    {
        detach();
        return m_data;
    }
    T &operator[](std::size_t i)
    {
        detach();
        return m_data[i];
    }
    T *begin()
    {
        detach();
        return m_data;
    }
    T *end()
    {
        detach();
        return m_data + m_size;
    }
    T &front()
    {
        detach();
        return m_data[0];
    }
    T &back()
    {
        detach();
        return m_data[m_size - 1];
    }
    void push_back(const T &value)
    {
        detach();
        m_owned.push_back(value);
        sync();
    }
    template <class... Args>
    T &emplace_back(Args &&...args)
    {
        detach();
        T &added = m_owned.emplace_back(std::forward<Args>(args)...);
        sync();
        return added;
    }
    void pop_back()
    {
        detach();
        m_owned.pop_back();
        sync();
    }
    void reserve(std::size_t n)
    {
        detach();
        m_owned.reserve(n);
        sync();
    }
    void resize(std::size_t n)
    {
        detach();
        m_owned.resize(n);
        sync();
    }
    void resize(std::size_t n, const T &value)
    {
        detach();
        m_owned.resize(n, value);
        sync();
    }
    void assign(std::size_t n, const T &value)
    {
        drop();
        m_owned.assign(n, value);
        sync();
    }
    template <class It>
    void assign(It first, It last)
    {
        drop();
        m_owned.assign(first, last);
        sync();
    }
    T *insert(const T *at, const T &value)
    {
        const std::size_t offset = std::size_t(at - m_data);
        detach();
        m_owned.insert(m_owned.begin() + std::ptrdiff_t(offset), value);
        sync();
        return m_data + offset;
    }
    template <class It>
    T *insert(const T *at, It first, It last)
    {
        const std::size_t offset = std::size_t(at - m_data);
        detach();
        m_owned.insert(m_owned.begin() + std::ptrdiff_t(offset), first, last);
        sync();
        return m_data + offset;
    }
    T *erase(const T *first, const T *last)
    {
        const std::size_t from = std::size_t(first - m_data), to = std::size_t(last - m_data);
        detach();
        m_owned.erase(m_owned.begin() + std::ptrdiff_t(from), m_owned.begin() + std::ptrdiff_t(to));
        sync();
        return m_data + from;
    }
    void clear()
    {
        drop();
        m_owned.clear();
        sync();
    }
    void shrink_to_fit()
    {
        detach();
        m_owned.shrink_to_fit();
        sync();
    }
    void swap(Column &other) noexcept { std::swap(*this, other); }

private:
    // A mapped column becomes an owned copy before it is changed.
    void detach()
    {
        if (!m_mapping)
            return;
        m_owned.assign(m_data, m_data + m_size);
        m_mapping.reset();
        sync();
    }
    void drop()
    {
        m_mapping.reset();
        sync();
    }
    void sync()
    {
        m_data = m_owned.data();
        m_size = m_owned.size();
    }

    std::vector<T> m_owned;
    std::shared_ptr<const void> m_mapping;
    T *m_data = nullptr;
    std::size_t m_size = 0;
};

template <class T>
bool operator==(const Column<T> &a, const Column<T> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

template <class T>
bool operator==(const Column<T> &a, const std::vector<T> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace rankscope
