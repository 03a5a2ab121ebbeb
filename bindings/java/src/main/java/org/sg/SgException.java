package org.sg;

import java.nio.charset.StandardCharsets;

/**
 * A failed sg call: the status code and the one-line message of the C API. Unchecked; each code
 * has its own subclass ({@link InvalidArgumentException}, {@link NotFoundException}, ...), so
 * callers can catch exactly the failures they handle.
 */
public class SgException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Code code;

  protected SgException(Code code, String message) {
    super(message);
    this.code = code;
  }

  /** The status code. */
  public Code code() {
    return code;
  }

  /** The exception for a status; called by the generated JNI code when a C call fails. */
  static SgException fromStatus(int code, byte[] message) {
    return of(Code.fromValue(code), new String(message, StandardCharsets.UTF_8));
  }

  static SgException of(Code code, String message) {
    switch (code) {
      case CANCELLED: return new CancelledException(message);
      case UNKNOWN: return new UnknownException(message);
      case INVALID_ARGUMENT: return new InvalidArgumentException(message);
      case DEADLINE_EXCEEDED: return new DeadlineExceededException(message);
      case NOT_FOUND: return new NotFoundException(message);
      case ALREADY_EXISTS: return new AlreadyExistsException(message);
      case PERMISSION_DENIED: return new PermissionDeniedException(message);
      case RESOURCE_EXHAUSTED: return new ResourceExhaustedException(message);
      case FAILED_PRECONDITION: return new FailedPreconditionException(message);
      case ABORTED: return new AbortedException(message);
      case OUT_OF_RANGE: return new OutOfRangeException(message);
      case UNIMPLEMENTED: return new UnimplementedException(message);
      case INTERNAL: return new InternalException(message);
      case UNAVAILABLE: return new UnavailableException(message);
      case DATA_LOSS: return new DataLossException(message);
      case UNAUTHENTICATED: return new UnauthenticatedException(message);
      default: return new UnknownException(message);
    }
  }
}
