import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Build step of {@code sluice-cli} (run by the POM after the shade plugin, as a single-file source
 * program with ASM on the class path): rewrites every class in the shaded jar whose class file is
 * older than Java 6 (major version below 50) as a Java 8 class file with computed stack map frames.
 *
 * <p>Why: the JVM's ahead-of-time cache (JEP 483, used by {@code ./sluice}) cannot link such "old"
 * classes ahead of time (they need the old type-inferencing verifier), so it leaves them out, and
 * they are loaded, verified and linked from the jar on every start. picocli ships Java 5 class
 * files; left as they are, loading it and building the command model cost ~0.3 CPU-s of every
 * {@code sluice} start, most of the 0.4 CPU-s a one-row load is allowed. The bytecode itself is not
 * changed, only the class file version and the frames the split verifier needs.
 *
 * <p>Usage: {@code java -cp asm.jar UpgradeOldClasses.java JAR} (rewrites JAR in place; says so
 * when there was nothing to rewrite).
 */
public final class UpgradeOldClasses {
    private static final int OLDEST_LINKABLE_MAJOR = 50;

    private UpgradeOldClasses() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: UpgradeOldClasses JAR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path tmp = jar.resolveSibling(jar.getFileName() + ".upgrading");
        int upgraded = 0;
        // Frames need the common super class of two types: resolved against the jar itself (and
        // the JDK's modules, e.g. java.sql for picocli's converters).
        try (URLClassLoader hierarchy =
                        new URLClassLoader(
                                new URL[] {jar.toUri().toURL()},
                                ClassLoader.getPlatformClassLoader());
                InputStream in = Files.newInputStream(jar);
                ZipInputStream zin = new ZipInputStream(in);
                OutputStream out = Files.newOutputStream(tmp);
                ZipOutputStream zout = new ZipOutputStream(out)) {
            ZipEntry entry;
            while ((entry = zin.getNextEntry()) != null) {
                byte[] bytes = zin.readAllBytes();
                if (entry.getName().endsWith(".class") && majorVersion(bytes) > 0) {
                    if (majorVersion(bytes) < OLDEST_LINKABLE_MAJOR) {
                        bytes = upgrade(bytes, hierarchy);
                        upgraded++;
                    }
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                zout.putNextEntry(copy);
                zout.write(bytes);
                zout.closeEntry();
            }
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        if (upgraded == 0) {
            // Quiet when it did its job (the launcher's build output is the user's terminal).
            System.out.println(
                    "UpgradeOldClasses: no class file in "
                            + jar
                            + " is older than Java 6 any more; this build step can go");
        }
    }

    /** The class file's major version, or 0 when the bytes are not a class file. */
    private static int majorVersion(byte[] b) {
        if (b.length < 8
                || (b[0] & 0xff) != 0xCA
                || (b[1] & 0xff) != 0xFE
                || (b[2] & 0xff) != 0xBA
                || (b[3] & 0xff) != 0xBE) {
            return 0;
        }
        return ((b[6] & 0xff) << 8) | (b[7] & 0xff);
    }

    private static byte[] upgrade(byte[] bytes, ClassLoader hierarchy) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer =
                new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
                    @Override
                    protected ClassLoader getClassLoader() {
                        return hierarchy;
                    }
                };
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    @Override
                    public void visit(
                            int version,
                            int access,
                            String name,
                            String signature,
                            String superName,
                            String[] interfaces) {
                        super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
                    }
                },
                ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }
}
