package org.sg;

/** Library-wide facts. */
public final class Sg {
  private Sg() {}

  /** libsg's version, "MAJOR.MINOR.PATCH". */
  public static String version() {
    return Native.SG_Version();
  }
}
