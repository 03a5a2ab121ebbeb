package org.sg;

/** Library-wide facts. */
public final class Sg {
  private Sg() {}

  /** libsg's version, "MAJOR.MINOR.PATCH". */
  public static String version() {
    return Native.SG_Version();
  }

  /** Prints the version: {@code java -cp sg.jar org.sg.Sg} checks that the library loads. */
  public static void main(String[] args) {
    System.out.println("sg " + version());
  }
}
