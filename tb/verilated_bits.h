// Reading fields out of Verilator's port types, for every verilated-top driver.
#pragma once
#include <verilated.h>

#include <cstdint>
#include <type_traits>

namespace fixroute {

// Bits [lsb, lsb+width) of a Verilator port, whatever C type its width gave it.
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t bits(T value, unsigned lsb, unsigned width) {
  return (static_cast<uint64_t>(value) >> lsb) & ((width >= 64) ? ~0ull : ((1ull << width) - 1));
}
template <std::size_t W>
inline uint64_t bits(const VlWide<W>& value, unsigned lsb, unsigned width) {  // width <= 32
  const unsigned word = lsb / 32, shift = lsb % 32;
  uint64_t both = value[word];
  if (word + 1 < W) both |= static_cast<uint64_t>(value[word + 1]) << 32;
  return (both >> shift) & ((1ull << width) - 1);
}

}  // namespace fixroute
