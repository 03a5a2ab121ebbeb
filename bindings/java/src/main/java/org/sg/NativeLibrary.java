package org.sg;

import java.io.File;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads libsg_jni.so (which needs libsg.so.1) once, before the first native call: the generated
 * JNI class calls {@link #load()} from its static initializer.
 *
 * <p>Tried: the file named by the system property {@code org.sg.jni.library} when it is set
 * (and nothing else); otherwise {@code libsg_jni.so} in each directory of {@code
 * java.library.path}, then next to the jar, then in {@code ../lib} from it. A failure lists every path tried with the loader's reason.
 */
final class NativeLibrary {
  static final String PROPERTY = "org.sg.jni.library";
  private static final String NAME = "sg_jni";

  private static boolean loaded;

  private NativeLibrary() {}

  static synchronized void load() {
    if (loaded) return;
    List<String> tried = new ArrayList<>();
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
