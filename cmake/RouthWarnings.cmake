# Warning and sanitizer settings shared by every routh target.
add_library(routh_warnings INTERFACE)
target_compile_options(routh_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                -Wno-sign-conversion)
if(ROUTH_WERROR)
  target_compile_options(routh_warnings INTERFACE -Werror)
endif()
if(ROUTH_SANITIZE)
  target_compile_options(routh_warnings INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                  -fno-sanitize-recover=all)
  target_link_options(routh_warnings INTERFACE -fsanitize=address,undefined)
endif()
