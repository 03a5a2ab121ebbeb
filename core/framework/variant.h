// Variant: one element of a DT_VARIANT tensor. It holds a value of any C++ type behind a shared,
// immutable pointer, so copying a Variant (or a variant tensor, element by element) is a
// reference-count increment, never a copy of the value. TensorList (core/kernels/tensor_list.h) is
// the value type sg's kernels put in variants.
//
//   struct Pair {
//     static constexpr const char* kTypeName = "Pair";
//     int a, b;
//     std::string DebugString() const { return absl::StrCat("Pair(", a, ", ", b, ")"); }
//   };
//   Tensor t(DT_VARIANT, TensorShape({}));
//   t.scalar<Variant>()() = Variant(Pair{1, 2});
//   const Pair* p = t.scalar<Variant>()().get<Pair>();   // nullptr if it holds something else
//
// A value type T provides `static constexpr const char* kTypeName` and
// `std::string DebugString() const`. Variants are not serializable: a TensorProto cannot carry
// one (Tensor::FromProto refuses DT_VARIANT).
//
// Thread safety: the held value is immutable once shared, so concurrent reads of one Variant and
// of its copies are safe; assigning to a Variant object needs external locking, as for any value.
#ifndef SG_CORE_FRAMEWORK_VARIANT_H_
#define SG_CORE_FRAMEWORK_VARIANT_H_

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace sg {

class Variant {
 public:
  // An empty Variant (what a freshly allocated DT_VARIANT tensor holds).
  Variant() = default;
  // Holds `value` (moved in).
  template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, Variant>>>
  explicit Variant(T&& value)
      : value_(std::make_shared<Holder<std::decay_t<T>>>(std::forward<T>(value))) {}

  bool is_empty() const { return value_ == nullptr; }
  // T::kTypeName of the held value; "" when empty.
  std::string TypeName() const { return value_ ? value_->TypeName() : std::string(); }
  // "Variant<type: T value: ...>" with the value's DebugString; "Variant<empty>" when empty.
  std::string DebugString() const {
    if (!value_) return "Variant<empty>";
    return "Variant<type: " + value_->TypeName() + " value: " + value_->DebugString() + ">";
  }

  // The held value when it is a T, else nullptr (also when empty).
  template <typename T>
  const T* get() const {
    if (!value_ || value_->type_id() != TypeIdOf<T>()) return nullptr;
    return &static_cast<const Holder<T>*>(value_.get())->value;
  }

  // The held T for writing, but only when no other Variant shares it; else nullptr. A kernel
  // that holds the only reference to the tensor containing this Variant (see
  // Tensor::RefCountIsOne) may then update the value in place: nothing else can observe it.
  template <typename T>
  T* GetMutableIfUnique() {
    if (!value_ || value_.use_count() != 1 || value_->type_id() != TypeIdOf<T>()) return nullptr;
    return &static_cast<Holder<T>*>(value_.get())->value;
  }

 private:
  using TypeId = const void*;
  template <typename T>
  static TypeId TypeIdOf() {
    static const char tag = 0;
    return &tag;
  }

  struct Value {
    virtual ~Value() = default;
    virtual TypeId type_id() const = 0;
    virtual std::string TypeName() const = 0;
    virtual std::string DebugString() const = 0;
  };
  template <typename T>
  struct Holder final : Value {
    template <typename U>
    explicit Holder(U&& v) : value(std::forward<U>(v)) {}
    TypeId type_id() const override { return TypeIdOf<T>(); }
    std::string TypeName() const override { return T::kTypeName; }
    std::string DebugString() const override { return value.DebugString(); }
    T value;
  };

  // Shared between copies; written only through GetMutableIfUnique.
  std::shared_ptr<Value> value_;
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_VARIANT_H_
