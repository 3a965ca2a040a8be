#pragma once
// A dynamic-size Eigen matrix that keeps small sizes off the heap (small-buffer storage).
//
// Why: an impact law is a pure function of its problem, and for the problems of one or two
// contacts that a rocking block produces thousands of times in a sweep it must not touch the heap;
// yet a column of n blocks on the floor rests on 2n contacts, so an impact may have any number of
// them. Eigen has no matrix type that is both: a fixed-capacity matrix (MaxRows) lives in place
// but cannot grow past its capacity, and a dynamic one always allocates. So this type stores up
// to InlineRows × InlineCols entries in place and any larger size on the heap, and is an
// Eigen::Map over whichever buffer holds the entries: every Eigen expression reads and writes it
// as it would a MatrixXd (or VectorXd when InlineCols is 1).
//
// Contract. Copies and moves copy the entries, never the other object's buffer; resize() keeps
// the entries only when the size does not change (as Eigen's resize). Assignment `x = expr` sizes
// x; but `x.noalias() = expr` and `x += expr` act on the Map, which cannot resize: size x first.
// An expression that Eigen evaluates into a temporary of its own (a product inside a larger
// expression, an assignment `x = A * y` without noalias(), `.eval()`) makes a plain MatrixXd,
// which allocates: code that must not allocate evaluates products into a sized one of these with
// `noalias()`.

#include <Eigen/Core>
#include <array>
#include <new>
#include <utility>
#include <vector>

namespace routh {

template <int InlineRows, int InlineCols>
class SmallBufferMatrix
    : public Eigen::Map<
          Eigen::Matrix<double, Eigen::Dynamic, InlineCols == 1 ? 1 : Eigen::Dynamic>> {
 public:
  static constexpr bool kIsVector = InlineCols == 1;
  using Plain = Eigen::Matrix<double, Eigen::Dynamic, kIsVector ? 1 : Eigen::Dynamic>;
  using Base = Eigen::Map<Plain>;
  using Index = Eigen::Index;
  /// Entries held in place; a larger size lives on the heap.
  static constexpr Index kInlineEntries = Index{InlineRows} * Index{InlineCols};

  SmallBufferMatrix() : Base(nullptr, 0, kIsVector ? 1 : 0) { reseat(0, kIsVector ? 1 : 0); }
  /// A vector of `size` entries, uninitialised (as Eigen's VectorXd(size)).
  explicit SmallBufferMatrix(Index size) requires kIsVector : SmallBufferMatrix() { resize(size); }
  /// A rows × cols matrix, uninitialised.
  SmallBufferMatrix(Index rows, Index cols) : SmallBufferMatrix() { resize(rows, cols); }
  SmallBufferMatrix(const SmallBufferMatrix& other) : SmallBufferMatrix() { assign(other); }
  SmallBufferMatrix(SmallBufferMatrix&& other) noexcept : SmallBufferMatrix() {
    take(std::move(other));
  }
  /// From any Eigen expression, as a MatrixXd would be.
  template <typename Derived>
  SmallBufferMatrix(const Eigen::DenseBase<Derived>& other)  // NOLINT: implicit as Eigen's
      : SmallBufferMatrix() {
    assign(other);
  }
  ~SmallBufferMatrix() = default;

  SmallBufferMatrix& operator=(const SmallBufferMatrix& other) {
    if (this != &other) assign(other);
    return *this;
  }
  SmallBufferMatrix& operator=(SmallBufferMatrix&& other) noexcept {
    if (this != &other) take(std::move(other));
    return *this;
  }
  template <typename Derived>
  SmallBufferMatrix& operator=(const Eigen::DenseBase<Derived>& other) {
    assign(other);
    return *this;
  }

  /// Whether the entries live on the heap (the size exceeds the inline capacity).
  bool on_heap() const { return Base::data() != inline_.data(); }

  void resize(Index rows, Index cols) {
    if (rows == Base::rows() && cols == Base::cols()) return;
    reseat(rows, cols);
  }
  void resize(Index size) requires kIsVector { resize(size, 1); }
  using Base::setZero;
  SmallBufferMatrix& setZero(Index size) requires kIsVector {
    resize(size);
    Base::setZero();
    return *this;
  }
  SmallBufferMatrix& setZero(Index rows, Index cols) {
    resize(rows, cols);
    Base::setZero();
    return *this;
  }

 private:
  template <typename Derived>
  void assign(const Eigen::DenseBase<Derived>& other) {
    resize(other.rows(), other.cols());
    Base::operator=(other);
  }
  // Adopts other's heap buffer (its data pointer stays valid: moving a std::vector keeps it), or
  // copies its inline entries.
  void take(SmallBufferMatrix&& other) noexcept {
    if (!other.on_heap()) {
      reseat(other.rows(), other.cols());
      Base::operator=(other);
      return;
    }
    heap_ = std::move(other.heap_);
    new (static_cast<Base*>(this)) Base(heap_.data(), other.rows(), other.cols());
    other.heap_.clear();
    other.reseat(0, kIsVector ? 1 : 0);
  }
  // Points the map at a buffer of rows × cols entries: the inline one when it fits. Placement new
  // is how Eigen documents changing the array a Map views ("Changing the mapped array").
  void reseat(Index rows, Index cols) {
    double* data = inline_.data();
    if (rows * cols > kInlineEntries) {
      heap_.resize(static_cast<std::size_t>(rows * cols));
      data = heap_.data();
    } else {
      heap_.clear();
      heap_.shrink_to_fit();
    }
    new (static_cast<Base*>(this)) Base(data, rows, cols);
  }

  std::array<double, static_cast<std::size_t>(kInlineEntries)> inline_;  // NOLINT: written on use
  std::vector<double> heap_;
};

}  // namespace routh
