// The build phase of TaskGraph makes no CUDA call, so its checks run on any machine.
#include <catch2/catch.hpp>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/graph/task_graph.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

namespace {
// Never launched: a KernelLaunch only needs a function pointer to record.
void fake_kernel(int) {}
KernelLaunch fake_launch() { return KernelLaunch(fake_kernel, dim3(1), dim3(32), 0, 7); }
}  // namespace

TEST_CASE("TaskGraph records tasks and names unnamed ones by kind", "[graph]") {
  TaskGraph g("step");
  Task a = g.kernel("", fake_launch());
  Task b = g.memset("", reinterpret_cast<void*>(0x1000), 0, 16);
  Task c = g.copy("c", reinterpret_cast<void*>(0x1000), reinterpret_cast<const void*>(0x2000), 16);
  Task d = g.capture("d", [](CaptureContext&) {});
  CHECK(g.size() == 4);
  CHECK(g.name() == "step");
  CHECK(a.name() == "kernel#0");
  CHECK(b.name() == "memset#1");
  CHECK(c.name() == "c");
  a.precede(b, c);
  d.succeed(b, c);
  a.precede(b);  // a repeated edge is kept once and is no error
  CHECK(Task().empty());
  CHECK(Task().name() == "(empty task)");
}

TEST_CASE("A dependency that closes a cycle is refused and the cycle named", "[graph]") {
  TaskGraph g("g");
  Task a = g.kernel("a", fake_launch());
  Task b = g.kernel("b", fake_launch());
  Task c = g.kernel("c", fake_launch());
  a.precede(b);
  b.precede(c);
  BSRFLOW_CHECK_ERROR(c.precede(a), Errc::invalid_argument,
                      "graph 'g': 'c' before 'a' would close the cycle 'a' -> 'b' -> 'c' -> 'a'");
  BSRFLOW_CHECK_ERROR(a.succeed(c), Errc::invalid_argument,
                      "graph 'g': 'c' before 'a' would close the cycle 'a' -> 'b' -> 'c' -> 'a'");
  BSRFLOW_CHECK_ERROR(b.precede(b), Errc::invalid_argument, "graph 'g': 'b' before 'b' would close the cycle 'b' -> 'b'");
  a.precede(c);  // a shortcut is no cycle
}

TEST_CASE("A dependency on a task of another graph is refused", "[graph]") {
  TaskGraph g("g");
  TaskGraph h("h");
  Task x = g.kernel("x", fake_launch());
  Task y = h.kernel("y", fake_launch());
  BSRFLOW_CHECK_ERROR(x.precede(y), Errc::invalid_argument,
                      "task 'y' belongs to graph 'h', not to graph 'g' of task 'x': dependencies stay inside one "
                      "graph (a loop body is a graph of its own)");
  BSRFLOW_CHECK_ERROR(x.precede(Task()), Errc::invalid_argument,
                      "precede/succeed: an empty Task handle (default-constructed, not made by a TaskGraph)");
}

TEST_CASE("Invalid tasks are refused with the graph and task named", "[graph]") {
  TaskGraph g("g");
  BSRFLOW_CHECK_ERROR(g.kernel("k", KernelLaunch()), Errc::invalid_argument,
                      "graph 'g': kernel task 'k' has an empty KernelLaunch");
  BSRFLOW_CHECK_ERROR(g.capture("c", CaptureFn()), Errc::invalid_argument, "graph 'g': capture task 'c' has no callable");
  BSRFLOW_CHECK_ERROR(g.memset("m", nullptr, 0, 4), Errc::invalid_argument,
                      "graph 'g': memset task 'm' has a null destination");
  BSRFLOW_CHECK_ERROR(g.copy("cp", nullptr, nullptr, 4), Errc::invalid_argument,
                      "graph 'g': copy task 'cp' has a null source or destination");
  g.memset("zero bytes", nullptr, 0, 0);  // nothing to set: no pointer needed
  Task k = g.kernel("k", fake_launch());
  DeviceBuffer<float> none;
  BSRFLOW_CHECK_ERROR(k.uses(none, "x"), Errc::invalid_argument,
                      "uses: x of task 'k' is a default-constructed buffer (no memory to track)");
  DeviceBuffer<float> zero(0, nullptr);  // a live buffer object without memory is tracked
  k.uses(zero, "zero");
}

TEST_CASE("A TaskGraph moves with its tasks", "[graph]") {
  TaskGraph g("g");
  Task a = g.kernel("a", fake_launch());
  TaskGraph moved = std::move(g);
  Task b = moved.kernel("b", fake_launch());
  a.precede(b);  // handles stay valid: the graph's records did not move
  CHECK(moved.size() == 2);
}
