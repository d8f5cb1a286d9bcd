// The driver a fuzz target gets where it is not built with libFuzzer (the g++ build of
// `make test`, label `fuzz`): every input of the seed corpora, then a bounded number of
// inputs mutated from them (bit flips, bytes replaced, inserted and removed, chunks
// copied, two inputs spliced), reproducible from the seed. A crash, a sanitizer report or
// a hang (CTest's timeout) fails the test; `make fuzz` runs the same targets under
// libFuzzer for long (docs/fuzzing.md).
//
//   fuzz_NAME [--inputs N] [--seed S] CORPUS_DIR_OR_FILE...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void run(const Bytes& input) { LLVMFuzzerTestOneInput(input.data(), input.size()); }

Bytes mutate(const std::vector<Bytes>& corpus, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % (n ? n : 1)); };
  Bytes b = corpus[pick(corpus.size())];
  static const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, '0', '9', '-', ':', 'x', ',', '"', '{', '}', '[', ']', '\n'};
  const int edits = 1 + static_cast<int>(pick(8));
  for (int e = 0; e < edits; ++e) {
    switch (pick(6)) {
      case 0:
        if (!b.empty()) b[pick(b.size())] ^= static_cast<uint8_t>(1u << pick(8));
        break;
      case 1:
        if (!b.empty()) b[pick(b.size())] = interesting[pick(sizeof interesting)];
        break;
      case 2:
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)), static_cast<uint8_t>(rng()));
        break;
      case 3:
        if (!b.empty()) b.erase(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size())));
        break;
      case 4:
        if (!b.empty()) {  // copy a chunk somewhere else in the input
          const size_t from = pick(b.size()), len = 1 + pick(std::min<size_t>(32, b.size() - from));
          const Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(from + len));
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)), chunk.begin(), chunk.end());
        }
        break;
      default: {  // splice: this input's head, another's tail
        const Bytes& other = corpus[pick(corpus.size())];
        const size_t cut = pick(b.size() + 1), from = pick(other.size() + 1);
        b.resize(cut);
        b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
      }
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  long inputs = 10000;
  uint64_t seed = 1;
  std::vector<Bytes> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--inputs" && i + 1 < argc) {
      inputs = std::atol(argv[++i]);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::directory_iterator(arg))
        if (e.is_regular_file()) corpus.push_back(read_file(e.path()));
    } else if (std::filesystem::is_regular_file(arg)) {
      corpus.push_back(read_file(arg));
    } else {
      std::fprintf(stderr, "%s: no corpus '%s'\n", argv[0], arg.c_str());
      return 2;
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "usage: %s [--inputs N] [--seed S] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  for (const Bytes& input : corpus) run(input);
  std::mt19937_64 rng(seed);
  for (long i = 0; i < inputs; ++i) run(mutate(corpus, rng));
  std::printf("%s: %zu seed inputs and %ld mutated inputs, seed %llu: no crash\n", argv[0], corpus.size(), inputs,
              static_cast<unsigned long long>(seed));
  return 0;
}
