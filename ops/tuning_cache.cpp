#include "bsrflow/ops/tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

namespace fs = std::filesystem;

fs::path default_tuning_cache_dir() {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string();
  };
  if (const std::string d = env("BSRFLOW_CACHE_DIR"); !d.empty()) return fs::path(d);
  if (const std::string d = env("XDG_CACHE_HOME"); !d.empty()) return fs::path(d) / "bsrflow";
  if (const std::string d = env("HOME"); !d.empty()) return fs::path(d) / ".cache" / "bsrflow";
  BSRFLOW_FAIL(Errc::io, "no directory for the tuning cache: set BSRFLOW_CACHE_DIR, XDG_CACHE_HOME or HOME");
}

// ---- entry <-> JSON -----------------------------------------------------------------------------

namespace {

const char* layout_word(Layout l) { return l == Layout::row_major ? "row" : "col"; }

const Json& field(const Json& o, const char* name) {
  const Json* v = o.find(name);
  if (v == nullptr) BSRFLOW_FAIL(Errc::parse, o.where() + "missing field \"" + std::string(name) + "\"");
  return *v;
}

int int_field(const Json& o, const char* name) {
  const Json& v = field(o, name);
  const std::int64_t i = v.as_integer();
  if (i < -(std::int64_t{1} << 31) || i >= (std::int64_t{1} << 31))
    BSRFLOW_FAIL(Errc::parse, v.where() + "field \"" + std::string(name) + "\" is out of range");
  return static_cast<int>(i);
}

DType dtype_field(const Json& o, const char* name) {
  const Json& v = field(o, name);
  const std::string& s = v.as_string();
  for (const DType t : {DType::f16, DType::bf16, DType::f32, DType::f64})
    if (dtype_name(t) == s) return t;
  BSRFLOW_FAIL(Errc::parse, v.where() + "field \"" + std::string(name) + "\": unknown dtype \"" + s + "\"");
}

Layout layout_field(const Json& o, const char* name) {
  const Json& v = field(o, name);
  const std::string& s = v.as_string();
  if (s == "row") return Layout::row_major;
  if (s == "col") return Layout::col_major;
  BSRFLOW_FAIL(Errc::parse, v.where() + "field \"" + std::string(name) + "\": expected \"row\" or \"col\", found \"" +
                                s + "\"");
}

}  // namespace

Json tuning_entry_json(const TuningEntry& e) {
  const TuningEnvironment& env = e.key.environment;
  const TuningProblem& p = e.key.problem;
  Json o;
  o.set("gpu", env.gpu);
  o.set("sm_count", env.sm_count);
  o.set("compute_capability", env.compute_capability);
  o.set("cuda_runtime", env.cuda_runtime);
  o.set("cuda_driver", env.cuda_driver);
  o.set("bsrflow", env.library);
  o.set("in", std::string(dtype_name(p.in)));
  o.set("out", std::string(dtype_name(p.out)));
  o.set("R", p.R);
  o.set("C", p.C);
  o.set("b_layout", layout_word(p.b_layout));
  o.set("c_layout", layout_word(p.c_layout));
  o.set("n_log2", p.n_bucket);
  o.set("density_log2", p.density_bucket);
  o.set("skew_log2", p.skew_bucket);
  o.set("swath", e.config.variant.swath);
  o.set("orientation", e.config.variant.orientation == GemmOrientation::swap ? "swap" : "direct");
  o.set("k_chunk", e.config.variant.k_chunk);
  o.set("row_group", e.config.variant.row_group);
  o.set("items_per_stage", e.config.variant.items_per_stage);
  o.set("stages", e.config.stages);
  o.set("split_long_rows", e.config.split_long_rows);
  o.set("config", e.config.name());
  o.set("tuned_ms", e.tuned_ms);
  o.set("heuristic_ms", e.heuristic_ms);
  o.set("when", e.when);
  return o;
}

TuningEntry tuning_entry_from_json(const Json& o) {
  if (!o.is_object()) BSRFLOW_FAIL(Errc::parse, o.where() + "an entry must be an object");
  TuningEntry e;
  TuningEnvironment& env = e.key.environment;
  TuningProblem& p = e.key.problem;
  env.gpu = field(o, "gpu").as_string();
  env.sm_count = int_field(o, "sm_count");
  env.compute_capability = int_field(o, "compute_capability");
  env.cuda_runtime = int_field(o, "cuda_runtime");
  env.cuda_driver = int_field(o, "cuda_driver");
  env.library = field(o, "bsrflow").as_string();
  p.in = dtype_field(o, "in");
  p.out = dtype_field(o, "out");
  p.R = int_field(o, "R");
  p.C = int_field(o, "C");
  p.b_layout = layout_field(o, "b_layout");
  p.c_layout = layout_field(o, "c_layout");
  p.n_bucket = int_field(o, "n_log2");
  p.density_bucket = int_field(o, "density_log2");
  p.skew_bucket = int_field(o, "skew_log2");
  e.config.variant.swath = int_field(o, "swath");
  const Json& orientation = field(o, "orientation");
  if (orientation.as_string() == "swap") e.config.variant.orientation = GemmOrientation::swap;
  else if (orientation.as_string() == "direct") e.config.variant.orientation = GemmOrientation::direct;
  else BSRFLOW_FAIL(Errc::parse, orientation.where() + "field \"orientation\": expected \"direct\" or \"swap\"");
  e.config.variant.k_chunk = int_field(o, "k_chunk");
  // Entries written before row groups existed have no "row_group": one row per tile.
  e.config.variant.row_group = o.find("row_group") != nullptr ? int_field(o, "row_group") : 1;
  // Entries written before two-item stages existed have no "items_per_stage": one item.
  e.config.variant.items_per_stage = o.find("items_per_stage") != nullptr ? int_field(o, "items_per_stage") : 1;
  e.config.stages = int_field(o, "stages");
  e.config.split_long_rows = field(o, "split_long_rows").as_bool();
  e.tuned_ms = field(o, "tuned_ms").as_number();
  e.heuristic_ms = field(o, "heuristic_ms").as_number();
  e.when = field(o, "when").as_string();
  if (const std::string why = tunable_config_problem(p.in, p.R, p.C, p.b_layout, e.config); !why.empty())
    BSRFLOW_FAIL(Errc::parse, o.where() + why);
  if (!(e.tuned_ms > 0) || !(e.heuristic_ms > 0))
    BSRFLOW_FAIL(Errc::parse, o.where() + "tuned_ms and heuristic_ms must be positive");
  return e;
}

// ---- the cache ----------------------------------------------------------------------------------

TuningCache::TuningCache(fs::path dir, TuningLogger log) : dir_(std::move(dir)), log_(std::move(log)) {}

void TuningCache::warn(const std::string& message) const {
  std::lock_guard<std::mutex> guard(mutex_);
  warn_unlocked(message);
}

void TuningCache::warn_unlocked(const std::string& message) const {
  const std::string line = "bsrflow: tuning cache " + file().string() + ": " + message;
  if (!warned_.insert(line).second) return;  // once per distinct message
  if (log_) log_(line);
  else std::cerr << "warning: " << line << '\n';
}

TuningCache::Loaded TuningCache::load_unlocked() const {
  Loaded out;
  std::ifstream in(file(), std::ios::binary);
  if (!in.good()) return out;  // no file yet: an empty cache, not a problem
  std::ostringstream text;
  text << in.rdbuf();
  Json doc;
  try {
    doc = parse_json(text.str());
  } catch (const Error& e) {
    warn_unlocked("not valid JSON (" + e.message() + "; truncated or corrupted?); ignoring the whole file");
    return out;
  }
  const Json* format = doc.find("format");
  if (!doc.is_object() || format == nullptr || !format->is_integer()) {
    warn_unlocked(
        "not a bsrflow tuning cache (expected an object with an integer \"format\"); ignoring the whole file");
    return out;
  }
  if (format->as_integer() != kFormat) {
    warn_unlocked("format " + std::to_string(format->as_integer()) +
                  " is not known to this bsrflow (it reads format " + std::to_string(kFormat) +
                  "); ignoring the whole file");
    return out;
  }
  const Json* entries = doc.find("entries");
  if (entries == nullptr || !entries->is_array()) {
    warn_unlocked("\"entries\" is missing or not an array; ignoring the whole file");
    return out;
  }
  std::size_t index = 0;
  for (const Json& item : entries->as_array()) {
    try {
      TuningEntry e = tuning_entry_from_json(item);
      // A later duplicate of a key replaces the earlier one (store never writes duplicates).
      bool replaced = false;
      for (TuningEntry& have : out.entries)
        if (have.key == e.key) {
          have = e;
          replaced = true;
        }
      if (!replaced) out.entries.push_back(std::move(e));
    } catch (const Error& e) {
      warn_unlocked("entry " + std::to_string(index) + " ignored: " + e.message());
    }
    ++index;
  }
  return out;
}

std::optional<TuningEntry> TuningCache::lookup(const TuningKey& key) const {
  std::lock_guard<std::mutex> guard(mutex_);
  const Loaded loaded = load_unlocked();
  const TuningEntry* other = nullptr;
  for (const TuningEntry& e : loaded.entries) {
    if (e.key == key) return e;
    if (e.key.problem == key.problem && other == nullptr) other = &e;
  }
  if (other != nullptr) {
    const TuningEnvironment& have = other->key.environment;
    const bool foreign = !have.same_gpu(key.environment);
    warn_unlocked(std::string(foreign ? "foreign" : "stale") + " entry for " + problem_text(key.problem) +
         " not used: it was tuned on " + environment_text(have) + ", this is " + environment_text(key.environment) +
         " (tune again for this " + (foreign ? "GPU" : "software") + ")");
  }
  return std::nullopt;
}

std::vector<TuningEntry> TuningCache::entries() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return load_unlocked().entries;
}

namespace {

// flock on <file>.lock for the lifetime of the object (released by close, also on a crash).
class FileLock {
 public:
  explicit FileLock(const fs::path& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    BSRFLOW_REQUIRE(fd_ >= 0, Errc::io, "cannot open lock file '" + path.string() + "': " + std::strerror(errno));
    int rc;
    do rc = ::flock(fd_, LOCK_EX);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int err = errno;
      ::close(fd_);
      BSRFLOW_FAIL(Errc::io, "cannot lock '" + path.string() + "': " + std::strerror(err));
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

void write_all(int fd, const std::string& text, const fs::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    BSRFLOW_REQUIRE(n > 0, Errc::io, "writing '" + path.string() + "' failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

// `text` replaces `target` atomically: temporary in the same directory, fsync, rename, fsync dir.
void replace_file(const fs::path& target, const std::string& text) {
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = target.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  BSRFLOW_REQUIRE(fd >= 0, Errc::io, "cannot create '" + tmp.string() + "': " + std::strerror(errno));
  try {
    write_all(fd, text, tmp);
    BSRFLOW_REQUIRE(::fsync(fd) == 0, Errc::io, "fsync of '" + tmp.string() + "' failed: " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    BSRFLOW_FAIL(Errc::io, "cannot rename '" + tmp.string() + "' to '" + target.string() + "': " + std::strerror(err));
  }
  // The rename itself is durable once the directory is synced (best effort: not all file
  // systems allow it).
  if (const int dfd = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

void TuningCache::store(const TuningEntry& entry) {
  if (const std::string why = tunable_config_problem(entry.key.problem.in, entry.key.problem.R, entry.key.problem.C,
                                                     entry.key.problem.b_layout, entry.config);
      !why.empty())
    BSRFLOW_FAIL(Errc::invalid_argument, "TuningCache::store: " + why);
  std::lock_guard<std::mutex> guard(mutex_);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  BSRFLOW_REQUIRE(!ec, Errc::io, "cannot create the tuning cache directory '" + dir_.string() + "': " + ec.message());
  FileLock lock(file().string() + ".lock");
  Loaded loaded = load_unlocked();
  bool replaced = false;
  for (TuningEntry& e : loaded.entries)
    if (e.key == entry.key) {
      e = entry;
      replaced = true;
    }
  if (!replaced) loaded.entries.push_back(entry);
  Json doc;
  doc.set("format", kFormat);
  Json& list = doc.set("entries", Json(Json::Array{}));
  for (const TuningEntry& e : loaded.entries) list.push_back(tuning_entry_json(e));
  replace_file(file(), to_json_text(doc, 2, 2));
}

std::size_t TuningCache::clear() {
  std::lock_guard<std::mutex> guard(mutex_);
  if (!fs::exists(dir_)) return 0;
  FileLock lock(file().string() + ".lock");
  const std::size_t n = load_unlocked().entries.size();
  std::error_code ec;
  fs::remove(file(), ec);
  BSRFLOW_REQUIRE(!ec, Errc::io, "cannot remove '" + file().string() + "': " + ec.message());
  return n;
}

TuningCache& default_tuning_cache() {
  static TuningCache cache(default_tuning_cache_dir());
  return cache;
}

}  // namespace bsrflow
