// CPU emulation of the staged CSR -> BSR numeric kernel's index math (detail::staged_tile, the very
// function the kernel runs per thread), against the CPU oracle host::csr_to_bsr, bit for bit.
// The scatter map and the tiles are rebuilt on the host with the GPU symbolic phase's rules
// (tile t starts at the first block row whose work_before reaches t * tile_work; a block row
// belongs to tile work_before / tile_work; map = value offset inside the tile), with small tiles
// and small stages so that tiles span many chunks, block rows span many tiles, and with every
// output alignment (the tile frame's shift). Unwritten values (0xFF NaN bits) and writes outside
// the output (guards) fail. Emulated CTAs: one thread with a no-op barrier (within a phase of
// staged_tile no two threads write the same location, so that is the CTA's result), and 4 or 7
// std::threads meeting at a std::barrier where the kernel has __syncthreads (which exercises the
// thread-strided loops), and 3 std::threads taking turns at each barrier, in both orders (which
// fails deterministically if a needed barrier is missing).
// Not [gpu]: runs on the CPU machine. The kernel itself is checked by the [gpu] tests in
// test_gpu_csr_to_bsr.cu.
#include <catch2/catch.hpp>

#include <algorithm>
#include <barrier>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bsrflow/formats/detail_csr_to_bsr_merge.cuh"
#include "bsrflow/formats/detail_csr_to_bsr_staged.cuh"
#include "bsrflow/formats/host_convert.hpp"
#include "formats/test_gpu_convert_support.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using namespace bsrflow::test;

namespace {

struct HostTiles {
  std::vector<int> map;         // nnz, tile-relative
  std::vector<int> tile_block;  // tiles + 1
  std::vector<int> tile_entry;  // tiles + 1
};

// The symbolic phase's tiles and map, from the oracle's structure.
template <class T>
HostTiles host_tiles(const HostCsr<T>& csr, const HostBsr<T>& bsr, std::int64_t tile_work) {
  const int block_rows = bsr.block_rows();
  const int bs = bsr.R * bsr.C;
  std::vector<int> entry_ptr(static_cast<std::size_t>(block_rows) + 1);
  for (int b = 0; b <= block_rows; ++b) entry_ptr[b] = csr.row_ptr[std::min(b * bsr.R, csr.rows)];
  auto work_before = [&](int b) { return detail::tile_work_before(bsr.row_ptr[b], entry_ptr[b], bs); };
  const std::int64_t total = work_before(block_rows);
  const int tiles = block_rows == 0 ? 0 : static_cast<int>(std::max<std::int64_t>(1, (total + tile_work - 1) / tile_work));
  HostTiles t;
  for (int k = 0; k <= tiles; ++k) {
    int b = block_rows;
    if (k < tiles) {
      b = 0;
      while (b < block_rows && work_before(b) < k * tile_work) ++b;
    }
    t.tile_block.push_back(bsr.row_ptr[b]);
    t.tile_entry.push_back(entry_ptr[b]);
  }
  t.map.assign(static_cast<std::size_t>(csr.nnz()), -1);
  for (int b = 0; b < block_rows; ++b) {
    const std::int64_t tile = std::min<std::int64_t>(work_before(b) / tile_work, tiles - 1);
    for (int r = b * bsr.R; r < std::min((b + 1) * bsr.R, csr.rows); ++r)
      for (int e = csr.row_ptr[r]; e < csr.row_ptr[r + 1]; ++e) {
        const int c = csr.col_idx[e];
        const auto first = bsr.col_idx.begin() + bsr.row_ptr[b];
        const auto last = bsr.col_idx.begin() + bsr.row_ptr[b + 1];
        const int k = static_cast<int>(std::lower_bound(first, last, c / bsr.C) - bsr.col_idx.begin());
        REQUIRE(k < bsr.row_ptr[b + 1]);
        REQUIRE(bsr.col_idx[k] == c / bsr.C);
        t.map[e] = (k - t.tile_block[tile]) * bs + (r - b * bsr.R) * bsr.C + c % bsr.C;
      }
  }
  return t;
}

struct NoBarrier {
  void operator()() const {}
};

struct ThreadBarrier {
  std::barrier<>* barrier;
  void operator()() const { barrier->arrive_and_wait(); }
};

// A barrier that also serialises: one thread runs at a time, each from one barrier to the next,
// in turn order (a legal schedule of a CTA), so a missing barrier fails every time rather than
// when the OS happens to interleave the threads badly: without the one after the zeroing, the
// first thread scatters into vectors the later ones then zero; without the one after the scatter,
// it writes out vectors the later ones have not scattered into yet. (The barrier at the end of a
// chunk is not needed for the result: zeroing and write-out give each thread the same vectors,
// and the barrier after the zeroing keeps the next chunk's scatter behind every write-out.)
struct TurnTaking {
  std::mutex mutex;
  std::condition_variable changed;
  int turn = 0;
  int threads = 1;
  void wait_for(std::unique_lock<std::mutex>& lock, int slot) {
    changed.wait(lock, [&] { return turn == slot; });
  }
  void pass() {
    turn = (turn + 1) % threads;
    changed.notify_all();
  }
};

struct TurnBarrier {
  TurnTaking* turns;
  int slot;
  void operator()() const {
    std::unique_lock<std::mutex> lock(turns->mutex);
    turns->pass();
    turns->wait_for(lock, slot);
  }
};

enum class Schedule { rendezvous, in_order, reversed };

// Runs staged_tile over every tile into values placed `offset` elements past a 16-byte boundary,
// with `guard` poisoned elements on each side; returns the values, checks the guards. `threads`
// emulated CTA threads (std::threads when > 1) walk the tiles in the same order, as one CTA would
// walk them one after another, so every thread reaches the same barriers.
template <class T>
std::vector<T> emulate_staged(const HostCsr<T>& csr, const HostBsr<T>& bsr, const HostTiles& t, int offset,
                              int stage_vectors, int threads = 1, Schedule schedule = Schedule::rendezvous) {
  const std::size_t count = bsr.values.size();
  constexpr int kGuard = 16;
  std::vector<uint4> storage((count + 2 * kGuard + offset) * sizeof(T) / 16 + 2);
  std::memset(storage.data(), 0xFF, storage.size() * 16);
  T* base = reinterpret_cast<T*>(storage.data());
  T* values = base + kGuard + offset;
  std::vector<uint4> stage(static_cast<std::size_t>(stage_vectors));
  const int bs = bsr.R * bsr.C;
  const int tiles = static_cast<int>(t.tile_block.size()) - 1;
  auto run = [&](int thread, auto sync) {
    for (int k = 0; k < tiles; ++k)
      detail::staged_tile(csr.values.data(), t.map.data(), t.tile_entry[k], t.tile_entry[k + 1],
                          values + static_cast<std::int64_t>(t.tile_block[k]) * bs,
                          static_cast<std::int64_t>(t.tile_block[k + 1] - t.tile_block[k]) * bs, stage.data(),
                          stage_vectors, thread, threads, sync);
  };
  if (threads == 1) {
    run(0, NoBarrier{});
  } else if (schedule != Schedule::rendezvous) {
    // Slot k runs thread k (in order) or thread threads - 1 - k (reversed).
    TurnTaking turns;
    turns.threads = threads;
    std::vector<std::thread> pool;
    for (int slot = 0; slot < threads; ++slot)
      pool.emplace_back([&, slot] {
        const int thread = schedule == Schedule::in_order ? slot : threads - 1 - slot;
        {
          std::unique_lock<std::mutex> lock(turns.mutex);
          turns.wait_for(lock, slot);
        }
        run(thread, TurnBarrier{&turns, slot});
        std::unique_lock<std::mutex> lock(turns.mutex);
        turns.pass();  // done: the others finish their last phases
      });
    for (auto& th : pool) th.join();
  } else {
    std::barrier<> barrier(threads);
    std::vector<std::thread> pool;
    for (int thread = 0; thread < threads; ++thread)
      pool.emplace_back([&, thread] { run(thread, ThreadBarrier{&barrier}); });
    for (auto& th : pool) th.join();
  }
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(storage.data());
  const std::size_t begin = (kGuard + offset) * sizeof(T), end = begin + count * sizeof(T);
  long touched = 0;
  for (std::size_t i = 0; i < storage.size() * 16; ++i)
    if ((i < begin || i >= end) && bytes[i] != 0xFF) ++touched;
  CHECK(touched == 0);
  return std::vector<T>(values, values + count);
}

template <class T>
void check_emulation(const std::string& name, const HostCsr<T>& csr, int R, int C) {
  const HostBsr<T> oracle = host::csr_to_bsr(csr, R, C, Padding::zero_fill);
  // Tile work: the kernel's (64 KiB / sizeof T), and small ones so block rows span many tiles.
  for (const std::int64_t tile_work :
       {detail::kCsrToBsrTileBytes / static_cast<std::int64_t>(sizeof(T)), std::int64_t{37}, std::int64_t{1}}) {
    const HostTiles tiles = host_tiles(csr, oracle, tile_work);
    for (const int stage_vectors : {detail::kCsrToBsrWideStageBytes / 16, detail::kCsrToBsrStageBytes / 16, 5, 1})
      for (int offset = 0; offset < detail::kValuesPerVector<T>; ++offset) {
        INFO(name << ", block " << R << "x" << C << ", tile work " << tile_work << ", stage vectors " << stage_vectors
                  << ", offset " << offset);
        const std::vector<T> got = emulate_staged(csr, oracle, tiles, offset, stage_vectors);
        BSRFLOW_CHECK_SAME_BITS(got, oracle.values);
      }
  }
  // Several threads per emulated CTA: the strided loops and the barriers (fewer configurations:
  // every barrier is a real thread rendezvous).
  const HostTiles tiles = host_tiles(csr, oracle, 37);
  for (const int threads : {4, 7})
    for (const int offset : {0, detail::kValuesPerVector<T> - 1}) {
      INFO(name << ", block " << R << "x" << C << ", tile work 37, stage vectors 64, offset " << offset << ", "
                << threads << " threads");
      const std::vector<T> got = emulate_staged(csr, oracle, tiles, offset, 64, threads);
      BSRFLOW_CHECK_SAME_BITS(got, oracle.values);
    }
  // Several threads taking turns between barriers, in both orders, with tiles of several chunks
  // (tile work 1000, stage of 64 vectors): a missing barrier after the zeroing or after the scatter
  // fails every time.
  const HostTiles big_tiles = host_tiles(csr, oracle, 1000);
  for (const Schedule schedule : {Schedule::in_order, Schedule::reversed}) {
    INFO(name << ", block " << R << "x" << C << ", tile work 1000, stage vectors 64, 3 threads taking turns"
              << (schedule == Schedule::reversed ? " (reversed)" : ""));
    const std::vector<T> got = emulate_staged(csr, oracle, big_tiles, 1, 64, 3, schedule);
    BSRFLOW_CHECK_SAME_BITS(got, oracle.values);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("staged csr_to_bsr numeric: CPU emulation of the kernel's index math matches the oracle",
                   "[formats]", BSRFLOW_TEST_VALUE_TYPES) {
  using T = TestType;
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 3}, {3, 5}, {5, 3}, {16, 16}, {64, 16}, {1, 32}, {7, 1}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  check_emulation<T>("every third row empty", random_csr<T>(97, 83, 0.1, 31, 3), R, C);
  check_emulation<T>("no entries", random_csr<T>(40, 40, 0.0, 32), R, C);
  check_emulation<T>("fully dense", random_csr<T>(48, 70, 1.0, 33), R, C);
  check_emulation<T>("power-law rows", powerlaw_csr<T>(150, 200, 2000, 1.1, 35), R, C);
  check_emulation<T>("0 rows", HostCsr<T>{0, 7, {0}, {}, {}}, R, C);
}

TEST_CASE("staged csr_to_bsr numeric: the frame shift is the offset past a 16-byte boundary", "[formats]") {
  alignas(16) double d[4] = {};
  alignas(16) __half h[16] = {};
  CHECK(detail::staged_frame_shift(&d[0]) == 0);
  CHECK(detail::staged_frame_shift(&d[1]) == 1);
  CHECK(detail::staged_frame_shift(&d[2]) == 0);
  CHECK(detail::staged_frame_shift(&h[7]) == 7);
  CHECK(detail::staged_frame_shift(&h[8]) == 0);
  CHECK(detail::kValuesPerVector<float> == 4);
}
