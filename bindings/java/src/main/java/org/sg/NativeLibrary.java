package org.sg;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads libsg_jni.so (which needs libsg.so.1) once, before the first native call: the generated
 * JNI class calls {@link #load()} from its static initializer.
 *
 * <p>Tried, in order:
 * <ol>
 *   <li>the file named by the system property {@code org.sg.jni.library} when it is set, and
 *       nothing else;
 *   <li>the libraries the jar carries (the Maven artifact's jar does; the build tree's does not):
 *       the resource {@value #BUNDLE}{@code /sha256sums} lists them in load order with their
 *       SHA-256, as {@code sha256sum} prints it. They are extracted once to {@code
 *       $XDG_CACHE_HOME/sg/native/<SHA-256 of that list>/} (default {@code ~/.cache}; a
 *       directory only this user can read), each file checked against its hash on every load and
 *       written again when it differs, then loaded one by one (libsg.so.1 first, so that
 *       libsg_jni.so's need of it is met by the library already loaded);
 *   <li>{@code libsg_jni.so} in each directory of {@code java.library.path}, then next to the jar,
 *       then in {@code ../lib} from it.
 * </ol>
 * A failure lists every path tried with the loader's reason.
 */
final class NativeLibrary {
  static final String PROPERTY = "org.sg.jni.library";
  private static final String NAME = "sg_jni";
  /** The jar's directory of bundled libraries: the platform is the one Maven's os plugin names. */
  static final String BUNDLE = "/org/sg/native/linux-x86_64";

  private static boolean loaded;

  private NativeLibrary() {}

  static synchronized void load() {
    if (loaded) return;
    List<String> tried = new ArrayList<>();
    String explicit = System.getProperty(PROPERTY);
    if ((explicit == null || explicit.isEmpty()) && loadBundled(tried)) {
      loaded = true;
      return;
    }
    for (String path : candidates()) {
      File f = new File(path);
      if (!f.isFile()) {
        tried.add(path + ": no such file");
        continue;
      }
      try {
        System.load(f.getAbsolutePath());
        loaded = true;
        return;
      } catch (UnsatisfiedLinkError e) {
        tried.add(path + ": " + e.getMessage());
      }
    }
    StringBuilder msg = new StringBuilder("sg: cannot load the JNI library lib" + NAME
        + ".so (it needs libsg.so.1 beside it or on the loader's path). Tried:");
    for (String t : tried) msg.append("\n  ").append(t);
    msg.append("\nSet -D" + PROPERTY + "=/path/to/lib" + NAME
        + ".so or -Djava.library.path=DIR, and LD_LIBRARY_PATH for libsg.so.1 if needed.");
    throw new UnsatisfiedLinkError(msg.toString());
  }

  /**
   * Extracts and loads the bundled libraries when the jar has them (and the platform is theirs).
   * Returns false, with the reason in {@code tried}, when it has none or they could not be loaded.
   */
  private static boolean loadBundled(List<String> tried) {
    byte[] sums;
    try (InputStream in = NativeLibrary.class.getResourceAsStream(BUNDLE + "/sha256sums")) {
      if (in == null) return false;  // a jar without libraries: the build tree's
      sums = in.readAllBytes();
    } catch (IOException e) {
      tried.add("jar:" + BUNDLE + "/sha256sums: " + e);
      return false;
    }
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      tried.add("jar:" + BUNDLE + ": built for linux-x86_64, not " + os + "/" + arch);
      return false;
    }
    Path dir = cacheRoot().resolve("sg").resolve("native").resolve(hex(sha256(sums)));
    List<Path> files = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      for (String line : new String(sums, StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank()) continue;
        String[] f = line.trim().split("\\s+\\*?", 2);
        if (f.length != 2 || f[0].length() != 64 || f[1].contains("/")) {
          throw new IOException(BUNDLE + "/sha256sums: malformed line \"" + line + "\"");
        }
        files.add(extract(dir, f[1], f[0]));
      }
    } catch (IOException e) {
      tried.add("jar:" + BUNDLE + " extracted to " + dir + ": " + e.getMessage());
      return false;
    }
    for (Path file : files) {
      try {
        System.load(file.toString());
      } catch (UnsatisfiedLinkError e) {
        tried.add(file + " (from the jar): " + e.getMessage());
        return false;
      }
    }
    return true;
  }

  /** The file {@code dir/name} with SHA-256 {@code sha}: kept when it has it, else written anew. */
  private static Path extract(Path dir, String name, String sha) throws IOException {
    Path target = dir.resolve(name);
    if (Files.isRegularFile(target) && hex(sha256(Files.readAllBytes(target))).equals(sha)) {
      return target;
    }
    byte[] data;
    try (InputStream in = NativeLibrary.class.getResourceAsStream(BUNDLE + "/" + name)) {
      if (in == null) throw new IOException("the jar lists " + name + " but does not hold it");
      data = in.readAllBytes();
    }
    String got = hex(sha256(data));
    if (!got.equals(sha)) {
      throw new IOException("the jar's " + name + " has SHA-256 " + got + ", its list says " + sha);
    }
    // Written beside the target and renamed over it, so that another process loading at the same
    // time sees either no file or a whole one.
    Path tmp = Files.createTempFile(dir, name, ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        out.write(data);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return target;
  }

  private static Path cacheRoot() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) return Path.of(xdg);
    return Path.of(System.getProperty("user.home"), ".cache");
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);  // every JVM has it
    }
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  private static Set<String> candidates() {
    Set<String> paths = new LinkedHashSet<>();
    String explicit = System.getProperty(PROPERTY);
    if (explicit != null && !explicit.isEmpty()) {
      paths.add(explicit);  // the caller said where: nothing else is tried
      return paths;
    }
    String file = System.mapLibraryName(NAME);
    String libraryPath = System.getProperty("java.library.path", "");
    for (String dir : libraryPath.split(File.pathSeparator)) {
      if (!dir.isEmpty()) paths.add(new File(dir, file).getPath());
    }
    File jarDir = jarDirectory();
    if (jarDir != null) {
      paths.add(new File(jarDir, file).getPath());
      paths.add(new File(new File(jarDir.getParentFile(), "lib"), file).getPath());
    }
    return paths;
  }

  private static File jarDirectory() {
    try {
      CodeSource src = NativeLibrary.class.getProtectionDomain().getCodeSource();
      if (src == null || src.getLocation() == null) return null;
      File f = new File(src.getLocation().toURI());
      return f.isFile() ? f.getParentFile() : f;
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return null;
    }
  }
}
