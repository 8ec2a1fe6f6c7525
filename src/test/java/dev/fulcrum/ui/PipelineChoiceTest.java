package dev.fulcrum.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelineChoiceTest {
    @TempDir
    Path dri;

    @Test
    void linuxWithoutARenderNodeDrawsInSoftwareFromTheStart() throws Exception {
        assertEquals("sw", Gui.pipeline("Linux", null, dri), "an empty /dev/dri");
        Files.createFile(dri.resolve("card0"));
        assertEquals("sw", Gui.pipeline("Linux", null, dri), "a display card without a render node");
        assertEquals("sw", Gui.pipeline("Linux", null, dri.resolve("absent")), "no /dev/dri at all");
    }

    @Test
    void aGpuTheUsersChoiceOrAnotherSystemKeepJavaFxsOwnOrder() throws Exception {
        Files.createFile(dri.resolve("renderD128"));
        assertNull(Gui.pipeline("Linux", null, dri), "a render node: OpenGL first");
        Files.delete(dri.resolve("renderD128"));
        assertNull(Gui.pipeline("Linux", "es2,sw", dri), "the user's -Dprism.order");
        assertNull(Gui.pipeline("Mac OS X", null, dri));
        assertNull(Gui.pipeline("Windows 11", null, dri));
    }

    @Test
    void drawingInSoftwareCachesNoRegionBackgrounds() throws Exception {
        assertEquals(Map.of("prism.order", "sw", "prism.disableRegionCaching", "true"),
                Gui.prismSettings("Linux", null, null, dri), "no GPU: software, no 8 MB cache texture");
        assertEquals(Map.of("prism.disableRegionCaching", "true"), Gui.prismSettings("Linux", "sw", null, dri),
                "the user asked for software");
        assertEquals(Map.of("prism.order", "sw"), Gui.prismSettings("Linux", null, "false", dri),
                "the user's -Dprism.disableRegionCaching");
        Files.createFile(dri.resolve("renderD128"));
        assertEquals(Map.of(), Gui.prismSettings("Linux", null, null, dri), "a GPU keeps its cache");
        assertEquals(Map.of(), Gui.prismSettings("Windows 11", "d3d,sw", null, dri));
    }
}
