// On-disk cache of tuned Hopper GEMM configurations (plan_gemm's tuning = cached / exhaustive,
// and the bsrflow-tune tool).
//
// File: <dir>/gemm_tuning.json, where <dir> is $BSRFLOW_CACHE_DIR, else $XDG_CACHE_HOME/bsrflow,
// else $HOME/.cache/bsrflow. Format (versioned; one object per entry):
//
//   {"format": 1, "entries": [
//     {"gpu": "NVIDIA H100 80GB HBM3", "sm_count": 132, "compute_capability": 90,
//      "cuda_runtime": 13000, "cuda_driver": 13000, "bsrflow": "0.1.0",
//      "in": "f16", "out": "f16", "R": 64, "C": 64, "b_layout": "row", "c_layout": "row",
//      "n_log2": 13, "density_log2": -3, "skew_log2": 0,
//      "swath": 256, "orientation": "direct", "k_chunk": 64, "stages": 5, "split_long_rows": true,
//      "config": "swath256_direct_kc64_s5", "tuned_ms": 1.21, "heuristic_ms": 1.30,
//      "when": "2026-11-23T12:00:00Z"}, ...]}
//
// Trust: nothing read from the file is used unless it is well-formed, of a known format, and its
// configuration is a tunable one for its key (gemm_tunables.hpp). A malformed, truncated or
// unknown-format file is ignored as a whole, a bad entry alone; each with a warning (once per
// distinct message and cache object) to the logger. Entries of another GPU (foreign) or of
// another CUDA runtime / driver / bsrflow version (stale) are kept in the file for their owners
// but never matched; a lookup that finds only such an entry for its problem says so.
//
// Concurrency: store() is read-merge-write under an advisory lock (flock on <file>.lock), and the
// new file is written to a temporary in the same directory, fsync'ed and renamed over the old
// one, so that concurrent processes all land their entries and a reader (which takes no lock)
// never sees a torn file. A mutex serialises the threads of one process.
#pragma once

#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bsrflow/core/json.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"
#include "bsrflow/ops/gemm_tuning_key.hpp"

namespace bsrflow {

struct TuningEntry {
  TuningKey key;
  GemmTunedConfig config;
  double tuned_ms = 0;      // the winner's median time
  double heuristic_ms = 0;  // the heuristic configuration's median time, same run
  std::string when;         // UTC, ISO 8601
  friend bool operator==(const TuningEntry&, const TuningEntry&) = default;
};

// Receives one warning line ("bsrflow: tuning cache <file>: ..."). Called with the cache's mutex
// held: it must not call back into the same cache.
using TuningLogger = std::function<void(const std::string&)>;

// The directory by the rule above. Throws Error(io) when none of the variables is set.
std::filesystem::path default_tuning_cache_dir();

class TuningCache {
 public:
  static constexpr int kFormat = 1;
  static constexpr const char* kFileName = "gemm_tuning.json";

  // `log` empty: warnings go to stderr. The directory is created on the first store().
  explicit TuningCache(std::filesystem::path dir, TuningLogger log = {});

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path file() const { return dir_ / kFileName; }

  // The valid entry for exactly `key`, if any.
  std::optional<TuningEntry> lookup(const TuningKey& key) const;

  // Adds `entry` (replacing one with the same key) and rewrites the file atomically. Bad entries
  // and an unreadable file are dropped (with their warnings). Throws Error(io) when the directory
  // or file cannot be written.
  void store(const TuningEntry& entry);

  // Every valid entry, in file order (foreign and stale ones included).
  std::vector<TuningEntry> entries() const;

  // Removes the file; returns how many valid entries it held.
  std::size_t clear();

  // One warning line about this cache ("bsrflow: tuning cache <file>: <message>") through the
  // logger, once per distinct message (plan_gemm reports a cached configuration that cannot run
  // on this device here too).
  void warn(const std::string& message) const;

 private:
  struct Loaded {
    std::vector<TuningEntry> entries;
  };
  Loaded load_unlocked() const;  // never throws for the file's contents; warns instead
  void warn_unlocked(const std::string& message) const;

  std::filesystem::path dir_;
  TuningLogger log_;
  mutable std::mutex mutex_;
  mutable std::set<std::string> warned_;
};

// The process-wide cache in default_tuning_cache_dir() that plan_gemm uses when
// GemmOptions::tuning_cache is null (created on first use; Error(io) if no directory is known).
TuningCache& default_tuning_cache();

// JSON of one entry / an entry from JSON (Error(parse) naming the bad field); for the tool and
// the tests.
Json tuning_entry_json(const TuningEntry& entry);
TuningEntry tuning_entry_from_json(const Json& object);

}  // namespace bsrflow
